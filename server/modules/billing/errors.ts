import { BillingCode } from '../../../common/error-codes';
import { ApiError } from '../errors';

export const notConfigured = () => new ApiError(BillingCode.NOT_CONFIGURED, 'errors.billing.notConfigured');
export const stripeUnavailable = () =>
  new ApiError(BillingCode.STRIPE_UNAVAILABLE, 'errors.billing.stripeUnavailable');
