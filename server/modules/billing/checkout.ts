import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type Stripe from 'stripe';
import { stripeLocale, type BillingInterval, type PaidRank } from '../../../common/plans';
import { localizePath, type Locale } from '../../../common/locales';
import { subscriptions, users, type User } from '../../db/schema';
import { ApiError } from '../errors';
import type { BillingDeps } from './deps';
import { BillingCode } from '../../../common/error-codes';
import { notConfigured, stripeUnavailable } from './errors';
import { LIVE_STATUSES } from './rank';
import { limitsFor } from '../../../common/ranks';
import { seatsFor } from './seats';

export interface CheckoutRequest {
  rank: PaidRank;
  interval: BillingInterval;
  /** A team workspace of the buyer's to buy seats for (decision 0043), and how many. */
  workspaceId?: string;
  seats?: number;
  lang: Locale;
  /** This site's origin, for the return addresses. */
  origin: string;
}

/** Stripe's own refusals and outages become one translated 502; the details go to the log. */
async function callStripe<T>(deps: BillingDeps, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    deps.logger.error({ err: (err as Error).message, what }, 'stripe call failed');
    throw stripeUnavailable();
  }
}

function stripeOf(deps: BillingDeps): Stripe {
  if (!deps.config.stripe) throw notConfigured();
  return deps.config.stripe;
}

/** The Stripe customer of this account, created once (an idempotency key makes a retry reuse it). */
async function ensureCustomer(deps: BillingDeps, user: User): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  const stripe = stripeOf(deps);
  const customer = await callStripe(deps, 'customers.create', () =>
    stripe.customers.create(
      { email: user.email, name: user.name ?? undefined, metadata: { user_id: user.id } },
      { idempotencyKey: `customer-${user.id}` },
    ),
  );
  const [saved] = await deps.db
    .update(users)
    .set({ stripeCustomerId: customer.id })
    .where(and(eq(users.id, user.id), isNull(users.stripeCustomerId)))
    .returning({ id: users.stripeCustomerId });
  if (saved?.id) return saved.id;
  // Two tabs raced; the first one's customer is the account's.
  const [row] = await deps.db.select({ id: users.stripeCustomerId }).from(users).where(eq(users.id, user.id));
  return row?.id ?? customer.id;
}

export async function liveSubscription(deps: BillingDeps, userId: string) {
  const [sub] = await deps.db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, LIVE_STATUSES)))
    .orderBy(desc(subscriptions.updatedAt))
    .limit(1);
  return sub ?? null;
}

/**
 * A Stripe Checkout page for a new subscription. The user id and referral code travel as
 * metadata on the session and on the subscription it creates, so every later event carries them.
 * Someone already subscribed changes plan in the Customer Portal instead (a second subscription
 * would bill twice).
 */
export async function createCheckout(deps: BillingDeps, user: User, req: CheckoutRequest): Promise<string> {
  const stripe = stripeOf(deps);
  const price = deps.config.priceIds[req.rank]?.[req.interval];
  if (!price) throw new ApiError(BillingCode.PLAN_NOT_FOR_SALE, 'errors.billing.planNotForSale');
  if (await liveSubscription(deps, user.id)) {
    throw new ApiError(BillingCode.ALREADY_SUBSCRIBED, 'errors.billing.alreadySubscribed');
  }
  // Seats: one for an account alone; for a team, as many as asked within what it needs and the plan has.
  const quantity = req.workspaceId
    ? await seatsFor(deps.db, user, req.workspaceId, limitsFor(req.rank).seats, req.seats)
    : 1;
  const customer = await ensureCustomer(deps, user);
  const metadata: Record<string, string> = { user_id: user.id };
  if (user.referralCode) metadata.referral_code = user.referralCode;
  if (req.workspaceId) metadata.workspace_id = req.workspaceId;
  const session = await callStripe(deps, 'checkout.sessions.create', () =>
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: user.id,
      line_items: [{ price, quantity }],
      allow_promotion_codes: true,
      locale: stripeLocale(req.lang) as Stripe.Checkout.SessionCreateParams.Locale,
      metadata,
      subscription_data: { metadata },
      success_url: `${req.origin}${localizePath('/pay-success', req.lang)}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${req.origin}${localizePath('/pricing', req.lang)}?canceled=1`,
    }),
  );
  if (!session.url) throw stripeUnavailable();
  return session.url;
}

/**
 * The Stripe Customer Portal: change plan, seats, payment method, invoices, cancel. `flow: 'seats'`
 * opens it on the subscription's update page, where the quantity (seats) is changed.
 */
export async function createPortal(
  deps: BillingDeps,
  user: User,
  req: { lang: Locale; origin: string; flow?: 'seats' },
): Promise<string> {
  const stripe = stripeOf(deps);
  if (!user.stripeCustomerId) {
    throw new ApiError(BillingCode.NO_CUSTOMER, 'errors.billing.noCustomer');
  }
  let flow: Stripe.BillingPortal.SessionCreateParams.FlowData | null = null;
  if (req.flow === 'seats') {
    const sub = await liveSubscription(deps, user.id);
    if (!sub) throw new ApiError(BillingCode.NO_SUBSCRIPTION, 'errors.billing.noSubscription');
    flow = { type: 'subscription_update', subscription_update: { subscription: sub.id } };
  }
  const session = await callStripe(deps, 'billingPortal.sessions.create', () =>
    stripe.billingPortal.sessions.create({
      customer: user.stripeCustomerId!,
      return_url: `${req.origin}${localizePath('/profile', req.lang)}`,
      locale: stripeLocale(req.lang) as Stripe.BillingPortal.SessionCreateParams.Locale,
      ...(flow && { flow_data: flow }),
    }),
  );
  return session.url;
}

/** Cancels every subscription still in force now (account deletion); Stripe errors propagate as 502. */
export async function cancelSubscriptions(deps: BillingDeps, userId: string): Promise<void> {
  const live = await deps.db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, LIVE_STATUSES)));
  if (live.length === 0) return;
  const stripe = stripeOf(deps);
  for (const { id } of live) {
    await callStripe(deps, 'subscriptions.cancel', () => stripe.subscriptions.cancel(id));
  }
}
