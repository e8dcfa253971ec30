// Usage periods (issue #6 part 3): the calendar month (UTC) on Free and granted ranks; on a paid
// plan, months counted from the subscription's billing anchor. For a monthly plan that is
// Stripe's own billing period; a yearly plan's allowance resets monthly on its anchor day.

export interface Period {
  start: Date;
  end: Date;
}

/** `months` calendar months after `from`, clamped to the month's last day (Jan 31 → Feb 28). */
function addMonths(from: Date, months: number): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(from.getUTCDate(), lastDay),
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
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
