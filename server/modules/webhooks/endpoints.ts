import { and, asc, count, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  webhookDeliveries,
  webhookEndpoints,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../db/schema';
import { WebhookCode } from '../../../common/error-codes';
import type { WebhookEvent } from '../../../common/webhook-events';
import { ApiError } from '../errors';
import type { PrivateAllowance } from '../outbound/address';
import { checkDestination, OutboundError } from '../outbound/destination';
import { newWebhookSecret } from './signing';
import { assertCan, inActorsWorkspaces, roleIn } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';

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

/** Endpoints belong to a workspace: the WHERE condition of the ones the actor reaches. */
const reachable = (actor: Actor) => inActorsWorkspaces(actor, webhookEndpoints.workspaceId);

/** An endpoint of a workspace the actor belongs to, with a role that manages webhooks; 404 / 403. */
export async function ownEndpoint(db: Db, actor: Actor, id: string): Promise<WebhookEndpoint> {
  const [found] = await db
    .select({ row: webhookEndpoints, role: roleIn(actor, webhookEndpoints.workspaceId) })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), reachable(actor)));
  if (!found?.role) throw webhookNotFound();
  assertCan(found.role, 'webhook.manage');
  return found.row;
}

/** The current workspace's endpoints. */
export async function listEndpoints(db: Db, actor: Actor) {
  assertCan(actor.role, 'webhook.manage');
  return db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, actor.workspace.id))
    .orderBy(asc(webhookEndpoints.createdAt));
}

export interface EndpointInput {
  url: string;
  description?: string;
  events: WebhookEvent[];
}

export async function createEndpoint(
  deps: { db: Db; allowPrivate: PrivateAllowance },
  actor: Actor,
  input: EndpointInput,
) {
  assertCan(actor.role, 'webhook.manage');
  const [row] = await deps.db
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.workspaceId, actor.workspace.id));
  if ((row?.n ?? 0) >= MAX_ENDPOINTS) {
    throw new ApiError(WebhookCode.TOO_MANY, 'errors.webhooks.tooMany', { limit: MAX_ENDPOINTS });
  }
  const url = await assertDeliverableUrl(input.url, deps.allowPrivate);
  const [created] = await deps.db
    .insert(webhookEndpoints)
    .values({
      workspaceId: actor.workspace.id,
      userId: actor.user.id,
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
  actor: Actor,
  id: string,
  input: Partial<EndpointInput> & { enabled?: boolean },
) {
  const current = await ownEndpoint(deps.db, actor, id);
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
    .where(and(eq(webhookEndpoints.id, id), reachable(actor)))
    .returning();
  if (!row) throw webhookNotFound();
  return row;
}

export async function deleteEndpoint(db: Db, actor: Actor, id: string) {
  await ownEndpoint(db, actor, id);
  const gone = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), reachable(actor)))
    .returning({ id: webhookEndpoints.id });
  if (gone.length === 0) throw webhookNotFound();
}

/** The newest deliveries first (the log keeps the last KEEP_DELIVERIES per endpoint). */
export async function listDeliveries(db: Db, actor: Actor, id: string, limit = 50) {
  await ownEndpoint(db, actor, id);
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, id))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(limit);
}
