import { eq } from 'drizzle-orm';
import { webhookEndpoints, type WebhookEndpoint } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import type { WebhookDeps } from './deps';
import { ownEndpoint } from './endpoints';
import { newWebhookSecret } from './signing';

// A signing secret is shown when the endpoint is made and when it is rotated, never in a read:
// a leaked read-only key must not be able to forge events to the owner's receiver. A signed-in
// person sees it again only by typing the password (decision 0032).

/** How long the secret before a rotation still signs deliveries, so receivers can switch over. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The secrets a delivery is signed with now: the current one, and the previous one in its overlap. */
export function signingSecrets(endpoint: WebhookEndpoint, now: Date): string[] {
  const previous =
    endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now
      ? [endpoint.previousSecret]
      : [];
  return [endpoint.secret, ...previous];
}

/** The endpoint's secret, after the password is confirmed (wrong password: 403, repeated: 429). */
export async function revealSecret(
  deps: Pick<WebhookDeps, 'db' | 'confirmPassword'>,
  actor: Actor,
  id: string,
  password: string,
): Promise<{ secret: string }> {
  const endpoint = await ownEndpoint(deps.db, actor, id);
  await deps.confirmPassword(actor.user, password);
  return { secret: endpoint.secret };
}

/**
 * A new secret; the old one keeps signing (a second `v1,` signature) for ROTATION_OVERLAP_MS.
 * Rotating twice within the overlap drops the oldest: only the one just replaced stays valid.
 */
export async function rotateSecret(
  deps: Pick<WebhookDeps, 'db' | 'now'>,
  actor: Actor,
  id: string,
): Promise<WebhookEndpoint> {
  const endpoint = await ownEndpoint(deps.db, actor, id);
  const now = deps.now();
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({
      secret: newWebhookSecret(),
      previousSecret: endpoint.secret,
      previousSecretUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      updatedAt: now,
    })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return row!;
}
