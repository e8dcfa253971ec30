// Billing payloads shared by the API and the pages (GET /self-api/v1/billing/*).

import type { OrderKind } from './record-states';

export interface BillingStatusJson {
  rank_name: string;
  payments_enabled: boolean;
  /** Whether the Customer Portal can be opened (the account has a Stripe customer). */
  has_customer: boolean;
  subscription: {
    rank: string | null;
    interval: string | null;
    status: string;
    current_period_end: string | null;
    cancel_at_period_end: boolean;
    payment_failed: boolean;
  } | null;
  granted_until: string | null;
}

export interface OrderJson {
  id: string;
  kind: OrderKind;
  amount: number;
  currency: string;
  rank: string | null;
  interval: string | null;
  period_start: string | null;
  period_end: string | null;
  paid_at: string;
}
