import { useState } from 'react';
import type { BillingStatusJson } from '../../common/billing-types';
import type { BillingInterval, PaidRank } from '../../common/plans';
import { api } from './api';
import { useLocale } from './use-locale';
import { useApiGet } from './use-api-get';

export function fetchBillingStatus(): Promise<BillingStatusJson | null> {
  return api
    .get<BillingStatusJson>('/self-api/v1/billing/status', undefined, { handleErrors: true })
    .catch(() => null);
}

/** The signed-in user's billing status (null while loading or when signed out). */
export function useBillingStatus(enabled: boolean) {
  return { status: useApiGet<BillingStatusJson>(enabled ? '/self-api/v1/billing/status' : null) };
}

/** Sends the browser to Stripe: Checkout for a new plan, the Customer Portal for changes. */
export function useBillingRedirects() {
  const lang = useLocale();
  const [pending, setPending] = useState<string | null>(null);
  async function go(key: string, call: () => Promise<{ url: string }>) {
    setPending(key);
    try {
      window.location.assign((await call()).url);
    } catch {
      // The API client has shown the translated reason.
      setPending(null);
    }
  }
  return {
    pending,
    checkout: (rank: PaidRank, interval: BillingInterval) =>
      go(`${rank}-${interval}`, () =>
        api.post<{ url: string }>('/self-api/v1/billing/checkout', { rank, interval, lang }),
      ),
    portal: () => go('portal', () => api.post<{ url: string }>('/self-api/v1/billing/portal', { lang })),
  };
}
