import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  webhookDeliveries,
  webhookEndpoints,
  type User,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../db/schema';
import { WebhookCode } from '../../../common/error-codes';
import type { WebhookEvent } from '../../../common/webhook-events';
import { ApiError } from '../errors';
import type { PrivateAllowance } from '../outbound/address';
import { checkDestination, OutboundError } from '../outbound/destination';
import { newWebhookSecret } from './signing';

export const MAX_ENDPOINTS = 10;

export const webhookNotFound = () => new ApiError(WebhookCode.NOT_FOUND, 'errors.webhooks.notFound');
const badUrl = (reason: string) =>
  new ApiError(WebhookCode.BAD_URL, 'errors.webhooks.badUrl', {
    fields: { url: `validation.webhookUrl` },
    reason,
  });

/**
 * The endpoint as the API shows it. The secret only where it was just made (create, rotate): a
 * read never carries it (modules/webhooks/secrets.ts).
 */
export function endpointJson(e: WebhookEndpoint, opts: { secret?: boolean; now?: Date } = {}) {
  const overlap = e.previousSecretUntil && e.previousSecretUntil > (opts.now ?? new Date());
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabled_reason: e.disabledReason,
    failure_count: e.failureCount,
    created_at: e.createdAt.toISOString(),
    /** Until when the secret before the last rotation signs too; null when it no longer does. */
    previous_secret_expires_at: overlap ? e.previousSecretUntil!.toISOString() : null,
    ...(opts.secret ? { secret: e.secret } : {}),
  };
}

export function deliveryJson(d: WebhookDelivery) {
  const last = d.attempts.at(-1);
  return {
    id: d.id,
    event: d.event,
    status: d.status,
    response_status: last?.status ?? null,
    error: last?.error ?? null,
    attempts: d.attempts.map((a) => ({ at: a.at, status: a.status, error: a.error, duration_ms: a.ms })),
    created_at: d.createdAt.toISOString(),
    finished_at: d.finishedAt?.toISOString() ?? null,
  };
}

/**
 * Refuses an address deliveries could never go to: not http(s), credentials in it, or a host
 * that is (or resolves to) anything but a public address. A name that does not resolve gets the
 * same answer as a private one, so registration tells nobody which internal names exist. Every
 * delivery checks the address again when it connects; this is so the owner hears about it now.
 */
export async function assertDeliverableUrl(raw: string, allowPrivate: PrivateAllowance): Promise<string> {
  try {
    return (await checkDestination(raw, allowPrivate)).href;
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    throw badUrl(err.reason === 'bad_url' ? 'bad_url' : 'blocked_address');
  }
}

export async function ownEndpoint(db: Db, user: User, id: string): Promise<WebhookEndpoint> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, user.id)));
  if (!row) throw webhookNotFound();
  return row;
}

export async function listEndpoints(db: Db, user: User) {
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, user.id))
    .orderBy(asc(webhookEndpoints.createdAt));
}

export interface EndpointInput {
  url: string;
  description?: string;
  events: WebhookEvent[];
}

export async function createEndpoint(
  deps: { db: Db; allowPrivate: PrivateAllowance },
  user: User,
  input: EndpointInput,
) {
  const [row] = await deps.db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, user.id));
  if ((row?.n ?? 0) >= MAX_ENDPOINTS) {
    throw new ApiError(WebhookCode.TOO_MANY, 'errors.webhooks.tooMany', { limit: MAX_ENDPOINTS });
  }
  const url = await assertDeliverableUrl(input.url, deps.allowPrivate);
  const [created] = await deps.db
    .insert(webhookEndpoints)
    .values({
      userId: user.id,
      url,
      description: input.description ?? '',
      events: [...new Set(input.events)],
      secret: newWebhookSecret(),
    })
    .returning();
  return created!;
}

export async function updateEndpoint(
  deps: { db: Db; allowPrivate: PrivateAllowance; now: () => Date },
  user: User,
  id: string,
  input: Partial<EndpointInput> & { enabled?: boolean },
) {
  const current = await ownEndpoint(deps.db, user, id);
  const changes: Partial<WebhookEndpoint> = { updatedAt: deps.now() };
  if (input.url !== undefined) changes.url = await assertDeliverableUrl(input.url, deps.allowPrivate);
  if (input.description !== undefined) changes.description = input.description;
  if (input.events !== undefined) changes.events = [...new Set(input.events)];
  if (input.enabled !== undefined) {
    changes.enabled = input.enabled;
    // Turned back on: the count of failures starts again.
    if (input.enabled && !current.enabled) {
      changes.failureCount = 0;
      changes.disabledReason = null;
    }
    if (!input.enabled) changes.disabledReason = null;
  }
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set(changes)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, user.id)))
    .returning();
  if (!row) throw webhookNotFound();
  return row;
}

export async function deleteEndpoint(db: Db, user: User, id: string) {
  const gone = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, user.id)))
    .returning({ id: webhookEndpoints.id });
  if (gone.length === 0) throw webhookNotFound();
}

/** The newest deliveries first (the log keeps the last KEEP_DELIVERIES per endpoint). */
export async function listDeliveries(db: Db, user: User, id: string, limit = 50) {
  await ownEndpoint(db, user, id);
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(limit);
}
