import { ApiError } from '../../http/envelope';

/** Billing refusals; the middle three digits are the HTTP status. */
export const BillingCode = {
  BAD_SIGNATURE: 40011,
  NO_CUSTOMER: 40412,
  PLAN_NOT_FOR_SALE: 40413,
  ALREADY_SUBSCRIBED: 40911,
  NOT_READY: 40912,
  NOT_CONFIGURED: 50311,
  STRIPE_UNAVAILABLE: 50211,
} as const;

export const notConfigured = () =>
  new ApiError(BillingCode.NOT_CONFIGURED, 'errors.billing.notConfigured', 503);
export const stripeUnavailable = () =>
  new ApiError(BillingCode.STRIPE_UNAVAILABLE, 'errors.billing.stripeUnavailable', 502);
