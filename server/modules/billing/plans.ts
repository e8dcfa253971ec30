import {
  BILLING_INTERVALS,
  LIST_PRICES,
  PAID_RANKS,
  type BillingInterval,
  type Money,
  type PlanJson,
  type PlansJson,
} from '../../../common/plans';
import type { BillingDeps } from './deps';

const PRICE_TTL_MS = 60 * 60 * 1000;

interface CachedPrice {
  money: Money | null;
  at: number;
}

/**
 * The plans /pricing shows. With Stripe configured, each configured price's own amount and
 * currency (read once an hour), so the page never disagrees with what Checkout charges; list
 * prices otherwise, or while Stripe cannot be reached.
 */
export function createPlanCatalogue(deps: BillingDeps) {
  const cache = new Map<string, CachedPrice>();

  async function priceOf(priceId: string): Promise<Money | null> {
    const hit = cache.get(priceId);
    if (hit && Date.now() - hit.at < PRICE_TTL_MS) return hit.money;
    try {
      const price = await deps.config.stripe!.prices.retrieve(priceId);
      const money =
        price.unit_amount === null ? null : { amount: price.unit_amount, currency: price.currency };
      cache.set(priceId, { money, at: Date.now() });
      return money;
    } catch (err) {
      deps.logger.warn({ err: (err as Error).message, price: priceId }, 'stripe price not readable');
      return hit?.money ?? null;
    }
  }

  return async function plans(): Promise<PlansJson> {
    const enabled = deps.config.stripe !== null;
    const paid = await Promise.all(
      PAID_RANKS.map(async (rank): Promise<PlanJson> => {
        const prices = {} as PlanJson['prices'];
        const purchasable = {} as PlanJson['purchasable'];
        for (const interval of BILLING_INTERVALS) {
          const id = enabled ? deps.config.priceIds[rank]?.[interval] : undefined;
          const list = LIST_PRICES[rank]?.[interval as BillingInterval] ?? null;
          prices[interval] = id ? ((await priceOf(id)) ?? list) : list;
          purchasable[interval] = Boolean(id);
        }
        return { rank, prices, purchasable };
      }),
    );
    const free: PlanJson = {
      rank: 'Free',
      prices: { monthly: { amount: 0, currency: 'usd' }, yearly: { amount: 0, currency: 'usd' } },
      purchasable: { monthly: false, yearly: false },
    };
    return { plans: [free, ...paid], payments_enabled: enabled };
  };
}
