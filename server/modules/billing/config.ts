import type Stripe from 'stripe';
import {
  BILLING_INTERVALS,
  PAID_RANKS,
  stripePriceVar,
  type BillingInterval,
  type PaidRank,
} from '../../../common/plans';
import type { Env } from '../../env';

export interface PricePlan {
  rank: PaidRank;
  interval: BillingInterval;
}

export interface BillingConfig {
  /** null without STRIPE_SECRET_KEY: plans are shown, nothing can be bought. */
  stripe: Stripe | null;
  webhookSecret: string | null;
  /** rank → interval → Stripe price id, for the configured ones. */
  priceIds: Partial<Record<PaidRank, Partial<Record<BillingInterval, string>>>>;
}

/** Stripe's SDK (≈ 20 MB) is imported only when a secret key is configured. */
export async function stripeClient(secretKey: string, apiBase?: string): Promise<Stripe> {
  const { default: StripeSdk } = await import('stripe');
  const base = apiBase ? new URL(apiBase) : null;
  return new StripeSdk(secretKey, {
    maxNetworkRetries: 2,
    timeout: 10_000,
    appInfo: { name: 'ClipScribe' },
    ...(base && {
      host: base.hostname,
      port: base.port || (base.protocol === 'https:' ? '443' : '80'),
      protocol: base.protocol === 'https:' ? 'https' : 'http',
    }),
  });
}

export async function billingConfig(env: Env): Promise<BillingConfig> {
  const priceIds: BillingConfig['priceIds'] = {};
  const vars = env as unknown as Record<string, string | undefined>;
  for (const rank of PAID_RANKS) {
    for (const interval of BILLING_INTERVALS) {
      const id = vars[stripePriceVar(rank, interval)];
      if (id) (priceIds[rank] ??= {})[interval] = id;
    }
  }
  return {
    stripe: env.STRIPE_SECRET_KEY ? await stripeClient(env.STRIPE_SECRET_KEY, env.STRIPE_API_BASE) : null,
    webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? null,
    priceIds,
  };
}

/** Which rank and interval a Stripe price buys; null for a price this deployment does not sell. */
export function planForPrice(config: BillingConfig, priceId: string | null | undefined): PricePlan | null {
  if (!priceId) return null;
  for (const rank of PAID_RANKS) {
    for (const interval of BILLING_INTERVALS) {
      if (config.priceIds[rank]?.[interval] === priceId) return { rank, interval };
    }
  }
  return null;
}
