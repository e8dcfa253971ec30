import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { BILLING_INTERVALS, PAID_RANKS } from '../../common/plans';
import { LOCALES } from '../../common/locales';
import type { AppEnv } from '../http/app-env';
import { requireUser } from '../http/current-user';
import { ok } from '../../common/envelope';
import { requestMeta } from '../http/request-meta';
import { readBody } from '../http/validate';
import { billingStatus, listOrders } from '../modules/billing/account';
import { createCheckout, createPortal } from '../modules/billing/checkout';
import { applyEvent, verifyEvent } from '../modules/billing/webhooks';
import { changeSeats } from '../modules/billing/seats';

const seatCount = z
  .number({ message: 'errors.billing.badSeats' })
  .int({ message: 'errors.billing.badSeats' })
  .min(1, { message: 'errors.billing.badSeats' })
  .max(1000, { message: 'errors.billing.badSeats' });

export const checkoutSchema = z
  .object({
    rank: z.enum(PAID_RANKS, { message: 'errors.billing.badPlan' }),
    interval: z.enum(BILLING_INTERVALS, { message: 'errors.billing.badInterval' }),
    lang: z.enum(LOCALES).optional(),
    /** A team workspace to buy seats for, and how many (decision 0043). */
    workspace_id: z.uuid({ message: 'errors.workspaces.notFound' }).optional(),
    seats: seatCount.optional(),
  })
  .strict();
export const portalSchema = z
  .object({
    lang: z.enum(LOCALES).optional(),
    /** 'seats': open the Portal on the subscription's update page (its quantity). */
    flow: z.enum(['seats'], { message: 'errors.billing.noSubscription' }).optional(),
  })
  .strict();
export const seatsSchema = z
  .object({ workspace_id: z.uuid({ message: 'errors.workspaces.notFound' }), seats: seatCount })
  .strict();

const billing = (c: Context<AppEnv>) => c.get('deps').services.billing;

function where(c: Context<AppEnv>, lang?: (typeof LOCALES)[number]) {
  const env = c.get('deps').env;
  const meta = requestMeta(c, { trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL });
  return { origin: meta.origin, lang: lang ?? meta.lang };
}

/** /self-api/v1/billing: plans (public), the caller's status and orders, Checkout and Portal. */
export function billingApi() {
  const api = new Hono<AppEnv>();
  api.get('/plans', async (c) => c.json(ok(await billing(c).plans())));
  api.get('/status', async (c) => c.json(ok(await billingStatus(billing(c), await requireUser(c)))));
  api.get('/orders', async (c) => c.json(ok({ orders: await listOrders(billing(c), await requireUser(c)) })));
  api.post('/checkout', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, checkoutSchema);
    const { workspace_id: workspaceId, ...rest } = body;
    const url = await createCheckout(billing(c), user, { ...rest, workspaceId, ...where(c, body.lang) });
    return c.json(ok({ url }));
  });
  api.post('/portal', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, portalSchema);
    return c.json(
      ok({ url: await createPortal(billing(c), user, { ...where(c, body.lang), flow: body.flow }) }),
    );
  });
  api.post('/seats', async (c) => {
    const user = await requireUser(c);
    const body = await readBody(c, seatsSchema);
    return c.json(
      ok(await changeSeats(billing(c), user, { workspaceId: body.workspace_id, seats: body.seats })),
    );
  });
  return api;
}

/** POST /webhooks/stripe: signed by Stripe, so outside the same-origin and session checks. */
export function stripeWebhook() {
  const api = new Hono<AppEnv>();
  api.post('/', async (c) => {
    const deps = billing(c);
    const event = verifyEvent(deps, await c.req.text(), c.req.header('stripe-signature') ?? null);
    const outcome = await applyEvent(deps, event);
    c.get('log')?.info({ event: event.id, type: event.type, outcome }, 'stripe event');
    return c.json(ok({ received: true, outcome }));
  });
  return api;
}
