import { useCallback, useEffect, useState } from 'react';
import { useOutletContext } from 'react-router';
import { api } from './api';
import { useApiGet } from './use-api-get';
import { ApiClientError } from './api-client';
import { AffiliateCode } from '../../common/error-codes';

export interface AffiliateCodeJson {
  code: string;
  label: string | null;
  created_at: string;
  clicks: number;
  signups: number;
}

export interface AffiliateJson {
  distribution_code: string | null;
  codes: AffiliateCodeJson[];
  website: string | null;
  audience: string | null;
  channel: string | null;
  payment_type: 'paypal';
  paypal_email: string | null;
  created_at: string;
  programme: { commission_percent: number; window_months: number; hold_days: number; minimum_payout: number };
}

export interface BalanceJson {
  currency: string;
  pending: number;
  available: number;
  in_payout: number;
  paid: number;
}

/** GET distribution/show: the record, null when not an affiliate, undefined on other failures. */
async function fetchShow(): Promise<AffiliateJson | null | undefined> {
  try {
    const row = await api.get<AffiliateJson | null>('/common-api/v1/distribution/show', undefined, {
      handleErrors: true,
    });
    return row ?? null;
  } catch (err) {
    return err instanceof ApiClientError && err.code === AffiliateCode.NOT_AFFILIATE ? null : undefined;
  }
}

/** The signed-in user's affiliate record: undefined while loading, null when not an affiliate. */
export function useAffiliateRecord() {
  const [affiliate, setAffiliate] = useState<AffiliateJson | null | undefined>(undefined);
  const reload = useCallback(async () => {
    const next = await fetchShow();
    if (next !== undefined) setAffiliate(next);
  }, []);
  useEffect(() => {
    let live = true;
    void fetchShow().then((next) => {
      if (live && next !== undefined) setAffiliate(next);
    });
    return () => {
      live = false;
    };
  }, []);
  return { affiliate, reload };
}

export interface AffiliateOutlet {
  affiliate: AffiliateJson;
  reload(): Promise<void>;
}

/** The tabs read the record the /affiliate layout loaded. */
export function useAffiliate(): AffiliateOutlet {
  return useOutletContext<AffiliateOutlet>();
}

/** GET one of the affiliate calls (/common-api/v1/distribution/<path>); bump `version` to reload. */
export function useAffiliateGet<T>(
  path: string,
  query?: Record<string, string | number | undefined>,
  version = 0,
) {
  return useApiGet<T>(`/common-api/v1/distribution/${path}`, query, version);
}
