import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/app-env';
import { uuidParam } from '../http/current-user';
import { requireActor } from '../http/current-actor';
import { ok } from '../../common/envelope';
import { readBody } from '../http/validate';
import { textField } from '../../common/text';
import { WEBHOOK_EVENTS } from '../../common/webhook-events';
import {
  createEndpoint,
  deleteEndpoint,
  deliveryJson,
  endpointJson,
  listDeliveries,
  listEndpoints,
  ownEndpoint,
  updateEndpoint,
  webhookNotFound,
} from '../modules/webhooks/endpoints';
import { sendTestEvent } from '../modules/webhooks/deliver';
import { revealSecret, rotateSecret } from '../modules/webhooks/secrets';
import type { WebhookDeps } from '../modules/webhooks/deps';

const url = z.string().trim().min(1, 'validation.required').max(2000, 'validation.tooLong');
const events = z.array(z.enum(WEBHOOK_EVENTS)).min(1, 'validation.required');
const description = textField({ max: 200 });

export const createWebhookSchema = z
  .object({ url, description: description.optional(), events: events.default([...WEBHOOK_EVENTS]) })
  .strict();
export const updateWebhookSchema = z
  .object({
    url: url.optional(),
    description: description.optional(),
    events: events.optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

export const revealSecretSchema = z
  .object({ password: z.string().min(1, 'validation.required').max(200, 'validation.tooLong') })
  .strict();

/** /self-api/v1/webhooks: a workspace's endpoints, their delivery log and test events. */
export function webhooksApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): WebhookDeps => c.get('deps').services.webhooks;
  const idParam = (c: Context<AppEnv>) => uuidParam(c, 'id', webhookNotFound);

  api.get('/', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok({ items: (await listEndpoints(deps(c).db, actor)).map((e) => endpointJson(e)) }));
  });

  // The signing secret is in this answer and in a single read, never in the list.
  api.post('/', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, createWebhookSchema);
    return c.json(ok(endpointJson(await createEndpoint(deps(c), actor, body), { secret: true })));
  });

  // Never the secret: a read-only key reads this (decision 0032).
  api.get('/:id', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok(endpointJson(await ownEndpoint(deps(c).db, actor, idParam(c)))));
  });

  // The secret again, for a signed-in person who types the password (API keys: 403, see access.ts).
  api.post('/:id/secret', async (c) => {
    const actor = await requireActor(c);
    const id = idParam(c);
    const body = await readBody(c, revealSecretSchema);
    return c.json(ok(await revealSecret(deps(c), actor, id, body.password)));
  });

  // A new secret, shown once like at creation; the old one signs too for 24 hours.
  api.post('/:id/rotate-secret', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok(endpointJson(await rotateSecret(deps(c), actor, idParam(c)), { secret: true })));
  });

  api.patch('/:id', async (c) => {
    const actor = await requireActor(c);
    const id = idParam(c);
    const body = await readBody(c, updateWebhookSchema);
    return c.json(ok(endpointJson(await updateEndpoint(deps(c), actor, id, body))));
  });

  api.delete('/:id', async (c) => {
    const actor = await requireActor(c);
    await deleteEndpoint(deps(c).db, actor, idParam(c));
    return c.json(ok(null));
  });

  api.get('/:id/deliveries', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok({ items: (await listDeliveries(deps(c).db, actor, idParam(c))).map(deliveryJson) }));
  });

  api.post('/:id/test', async (c) => {
    const actor = await requireActor(c);
    const endpoint = await ownEndpoint(deps(c).db, actor, idParam(c));
    return c.json(ok(deliveryJson(await sendTestEvent(deps(c), endpoint))));
  });

  return api;
}
