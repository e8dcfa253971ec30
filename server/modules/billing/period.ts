// Usage periods: the calendar month (UTC) on Free and granted ranks; on a paid
// plan, months counted from the subscription's billing anchor. For a monthly plan that is
// Stripe's own billing period; a yearly plan's allowance resets monthly on its anchor day.

import { addMonths } from '../../../common/dates';

export interface Period {
  start: Date;
  end: Date;
}

export function usagePeriod(anchor: Date | null | undefined, now: Date): Period {
  if (!anchor) {
    return {
      start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
      end: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
    };
  }
  // Months between anchor and now, then step one back or forward so start <= now < end.
  let n = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth());
  if (addMonths(anchor, n) > now) n -= 1;
  if (addMonths(anchor, n + 1) <= now) n += 1;
  return { start: addMonths(anchor, n), end: addMonths(anchor, n + 1) };
}
