import type { Db } from '../../db/client';
import type { Env } from '../../env';
import type { Logger } from '../../logger';

export interface AffiliateConfig {
  /** Commission in basis points of the net amount (3000 = 30 %). */
  rateBps: number;
  /** Payments within this many months of the referred user's signup earn commission. */
  windowMonths: number;
  holdDays: number;
  /** Smallest payout in minor units. */
  minPayout: number;
  clickSecret: string;
}

export interface AffiliateDeps {
  db: Db;
  config: AffiliateConfig;
  logger: Logger;
  now: () => Date;
}

export function affiliateConfig(env: Env): AffiliateConfig {
  return {
    rateBps: Math.round(env.AFFILIATE_COMMISSION_PERCENT * 100),
    windowMonths: env.AFFILIATE_WINDOW_MONTHS,
    holdDays: env.AFFILIATE_HOLD_DAYS,
    minPayout: env.AFFILIATE_MIN_PAYOUT,
    clickSecret: env.AFFILIATE_CLICK_SECRET,
  };
}
