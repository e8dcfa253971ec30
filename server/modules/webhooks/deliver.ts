import { and, eq, inArray, lt, notInArray, sql } from 'drizzle-orm';
import {
  users,
  workspaceMembers,
  webhookDeliveries,
  webhookEndpoints,
  type WebhookAttempt,
  type WebhookDelivery,
  type WebhookEndpoint,
} from '../../db/schema';
import { TEST_EVENT } from '../../../common/webhook-events';
import { OutboundError } from '../outbound/destination';
import { safeFetch } from '../outbound/safe-fetch';
import type { WebhookDeps } from './deps';
import { renderEndpointDisabledMail } from './disabled-mail';
import { signingSecrets } from './secrets';
import { newMessageId, webhookHeaders } from './signing';
import type { WebhookDeliveryStatus } from '../../../common/record-states';

/** The delivery log keeps this many deliveries per endpoint. */
export const KEEP_DELIVERIES = 100;
const KEEP_ATTEMPTS = 20;

/**
 * Records one event for every enabled endpoint of the workspace that subscribed to it, and queues
 * the first attempt of each (job `deliver-webhook`). Payload per Standard Webhooks:
 * `{type, timestamp, data}`.
 */
export async function emitWebhookEvent(
  deps: WebhookDeps,
  workspaceId: string,
  event: string,
  data: Record<string, unknown>,
): Promise<string[]> {
  const endpoints = await deps.db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.enabled, true)));
  const ids: string[] = [];
  for (const endpoint of endpoints) {
    if (!endpoint.events.includes(event)) continue;
    ids.push(await recordDelivery(deps, endpoint, event, data));
  }
  return ids;
}

async function recordDelivery(
  deps: WebhookDeps,
  endpoint: WebhookEndpoint,
  event: string,
  data: Record<string, unknown>,
): Promise<string> {
  const id = newMessageId();
  await deps.db.insert(webhookDeliveries).values({
    id,
    endpointId: endpoint.id,
    event,
    payload: { type: event, timestamp: deps.now().toISOString(), data },
    createdAt: deps.now(),
  });
  // The log is for looking back, not an archive: the oldest go.
  await deps.db.execute(sql`
    delete from ${webhookDeliveries} where ${webhookDeliveries.endpointId} = ${endpoint.id}
      and ${webhookDeliveries.id} not in (
        select ${webhookDeliveries.id} from ${webhookDeliveries}
        where ${webhookDeliveries.endpointId} = ${endpoint.id}
        order by ${webhookDeliveries.createdAt} desc limit ${KEEP_DELIVERIES})`);
  if (event !== TEST_EVENT)
    await deps.queue.add('deliver-webhook', { deliveryId: id, attempt: 1 }, { key: id });
  return id;
}

/** "Send test event": delivered at once, in the request, once (no retries, no failure count). */
export async function sendTestEvent(deps: WebhookDeps, endpoint: WebhookEndpoint): Promise<WebhookDelivery> {
  const id = await recordDelivery(deps, endpoint, TEST_EVENT, {
    endpoint_id: endpoint.id,
    message: 'This is a test event.',
  });
  await deliverWebhook(deps, { deliveryId: id, attempt: 1 });
  const [row] = await deps.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row!;
}

/** One attempt of one delivery (the `deliver-webhook` job); queues the next one on failure. */
export async function deliverWebhook(
  deps: WebhookDeps,
  job: { deliveryId: string; attempt: number },
): Promise<void> {
  const [found] = await deps.db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, job.deliveryId));
  // The endpoint was deleted, or the attempt ran already (a job handed back at shutdown).
  if (!found || found.delivery.status !== 'pending' || found.delivery.attempts.length >= job.attempt) return;
  const { delivery, endpoint } = found;
  const isTest = delivery.event === TEST_EVENT;
  if (!endpoint.enabled && !isTest) {
    await finishDelivery(deps, delivery, 'failed', {
      at: deps.now().toISOString(),
      status: null,
      error: 'endpoint_disabled',
      ms: 0,
    });
    return;
  }

  const body = JSON.stringify(delivery.payload);
  const started = Date.now();
  let status: number | null = null;
  let error: string | null = null;
  // Addresses that can never be reached are not retried.
  let final = false;
  try {
    const res = await safeFetch(endpoint.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...webhookHeaders(
          signingSecrets(endpoint, deps.now()),
          delivery.id,
          Math.floor(deps.now().getTime() / 1000),
          body,
        ),
      },
      body,
      allowPrivate: deps.allowPrivate,
      // A redirect is an answer, not an instruction: the body would not follow it.
      maxRedirects: 0,
      timeoutMs: deps.timeoutMs,
      maxBytes: 64 * 1024,
    });
    status = res.status;
    await res.text(1024).catch(() => '');
  } catch (err) {
    error = err instanceof OutboundError ? err.reason : 'network';
    final = error === 'blocked_address' || error === 'bad_url';
    if (!(err instanceof OutboundError))
      deps.logger.warn({ err, deliveryId: delivery.id }, 'webhook delivery failed');
  }
  const attempt: WebhookAttempt = {
    at: new Date(started).toISOString(),
    status,
    error,
    ms: Date.now() - started,
  };
  if (status !== null && status >= 200 && status < 300) {
    await finishDelivery(deps, delivery, 'succeeded', attempt);
    if (!isTest && endpoint.failureCount > 0) {
      await deps.db
        .update(webhookEndpoints)
        .set({ failureCount: 0 })
        .where(eq(webhookEndpoints.id, endpoint.id));
    }
    return;
  }
  const delay = deps.retryDelaysMs[job.attempt - 1];
  if (!final && !isTest && delay !== undefined) {
    await deps.db
      .update(webhookDeliveries)
      .set({ attempts: [...delivery.attempts, attempt].slice(-KEEP_ATTEMPTS) })
      .where(eq(webhookDeliveries.id, delivery.id));
    await deps.queue.add(
      'deliver-webhook',
      { deliveryId: delivery.id, attempt: job.attempt + 1 },
      { delayMs: delay, key: delivery.id },
    );
    return;
  }
  await finishDelivery(deps, delivery, 'failed', attempt);
  if (!isTest) await countFailure(deps, endpoint);
}

async function finishDelivery(
  deps: WebhookDeps,
  delivery: WebhookDelivery,
  status: Exclude<WebhookDeliveryStatus, 'pending'>,
  attempt: WebhookAttempt,
) {
  await deps.db
    .update(webhookDeliveries)
    .set({ status, attempts: [...delivery.attempts, attempt].slice(-KEEP_ATTEMPTS), finishedAt: deps.now() })
    .where(eq(webhookDeliveries.id, delivery.id));
}

/** One more delivery gave up; past the threshold the endpoint is turned off and its owner told. */
async function countFailure(deps: WebhookDeps, endpoint: WebhookEndpoint) {
  const [row] = await deps.db
    .update(webhookEndpoints)
    .set({ failureCount: sql`${webhookEndpoints.failureCount} + 1` })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning({ failures: webhookEndpoints.failureCount, enabled: webhookEndpoints.enabled });
  if (!row || !row.enabled || row.failures < deps.disableAfter) return;
  const [turnedOff] = await deps.db
    .update(webhookEndpoints)
    .set({ enabled: false, disabledReason: 'failures', updatedAt: deps.now() })
    .where(and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.enabled, true)))
    .returning({ id: webhookEndpoints.id });
  if (!turnedOff) return;
  // Deliveries still waiting for a retry will not be sent now.
  await deps.db
    .update(webhookDeliveries)
    .set({ status: 'failed', finishedAt: deps.now() })
    .where(
      and(
        eq(webhookDeliveries.endpointId, endpoint.id),
        eq(webhookDeliveries.status, 'pending'),
        notInArray(webhookDeliveries.event, [TEST_EVENT]),
      ),
    );
  // Its creator hears of it; once their account is gone, the workspace's owner.
  const [owner] = endpoint.userId
    ? await deps.db
        .select({ email: users.email, language: users.language })
        .from(users)
        .where(inArray(users.id, [endpoint.userId]))
    : await deps.db
        .select({ email: users.email, language: users.language })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(and(eq(workspaceMembers.workspaceId, endpoint.workspaceId), eq(workspaceMembers.role, 'owner')))
        .orderBy(workspaceMembers.createdAt)
        .limit(1);
  if (!owner) return;
  const mail = renderEndpointDisabledMail({
    lang: owner.language,
    appName: deps.appName,
    url: endpoint.url,
    failures: row.failures,
    profileLink: deps.publicUrl ? `${deps.publicUrl.replace(/\/$/, '')}/profile` : null,
  });
  await deps.sendMail({ to: owner.email, ...mail });
  deps.logger.info(
    { endpointId: endpoint.id, failures: row.failures },
    'webhook endpoint turned off after failures',
  );
}

/**
 * The recovery sweep's part for webhooks: a pending delivery whose job is gone (queued while
 * Redis was away, or lost with it) is attempted again, with the same webhook-id, at least once.
 */
export async function recoverDeliveries(deps: WebhookDeps, quietMs = 60_000): Promise<number> {
  const before = new Date(deps.now().getTime() - quietMs);
  const pending = await deps.db
    .select({
      id: webhookDeliveries.id,
      attempts: webhookDeliveries.attempts,
      event: webhookDeliveries.event,
    })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.createdAt, before)));
  const waiting = pending.filter((d) => d.event !== TEST_EVENT);
  if (waiting.length === 0) return 0;
  const live = await deps.queue.liveKeys('deliver-webhook');
  let queued = 0;
  for (const d of waiting) {
    if (live.has(d.id)) continue;
    await deps.queue.add(
      'deliver-webhook',
      { deliveryId: d.id, attempt: d.attempts.length + 1 },
      { key: d.id },
    );
    queued++;
  }
  if (queued) deps.logger.warn({ deliveries: queued }, 'webhook deliveries had lost their job: queued again');
  return queued;
}
