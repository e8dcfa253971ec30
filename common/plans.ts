import { RANKS, type StandardRank } from './ranks';

// What can be bought, and list prices shown when Stripe cannot be asked (not configured or
// unreachable). With Stripe configured, /pricing shows the configured prices' own amounts.
export const PAID_RANKS = RANKS.filter((r) => r !== 'Free') as Exclude<StandardRank, 'Free'>[];
export type PaidRank = (typeof PAID_RANKS)[number];
export const BILLING_INTERVALS = ['monthly', 'yearly'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export function stripePriceVar(rank: PaidRank, interval: BillingInterval): string {
  return `STRIPE_PRICE_${rank.toUpperCase()}_${interval.toUpperCase()}`;
}

export interface Money {
  /** Integer minor units (cents). */
  amount: number;
  currency: string;
}

/** Yearly is ten months' price: two months free. Enterprise is quoted per customer. */
export const LIST_PRICES: Record<PaidRank, Record<BillingInterval, Money> | null> = {
  STARTER: { monthly: { amount: 900, currency: 'usd' }, yearly: { amount: 9000, currency: 'usd' } },
  BASIC: { monthly: { amount: 1900, currency: 'usd' }, yearly: { amount: 19000, currency: 'usd' } },
  ADVANCED: { monthly: { amount: 3900, currency: 'usd' }, yearly: { amount: 39000, currency: 'usd' } },
  UNLIMITED: { monthly: { amount: 7900, currency: 'usd' }, yearly: { amount: 79000, currency: 'usd' } },
  Enterprise: null,
};

/** One plan as /pricing shows it (GET /self-api/v1/billing/plans). */
export interface PlanJson {
  rank: StandardRank;
  prices: Record<BillingInterval, Money | null>;
  /** Whether this rank can be bought online now (Stripe configured and a price id set). */
  purchasable: Record<BillingInterval, boolean>;
}

export interface PlansJson {
  plans: PlanJson[];
  /** Online payment is configured at all. */
  payments_enabled: boolean;
}

/** Stripe Checkout's locale for an interface language. */
export function stripeLocale(lang: string): string {
  if (lang === 'tw') return 'zh-TW';
  return ['de', 'es', 'fr', 'ja', 'ko', 'pt', 'vi', 'zh', 'en'].includes(lang) ? lang : 'auto';
}

/** Formats money in the visitor's locale (minor units → e.g. "9,00 €", "$9"). */
/** Intl.NumberFormat is costly to build and pages show the same few prices: one per shape. */
const formats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    if (formats.size < 500) formats.set(key, format);
  }
  return format;
}

export function formatMoney(money: Money, locale: string): string {
  const digits =
    numberFormat('en', { style: 'currency', currency: money.currency }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  const value = money.amount / 10 ** digits;
  return numberFormat(locale, {
    style: 'currency',
    currency: money.currency.toUpperCase(),
    minimumFractionDigits: Number.isInteger(value) ? 0 : digits,
    maximumFractionDigits: digits,
  }).format(value);
}
