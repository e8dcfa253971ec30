import { BillingCode } from '../../../common/error-codes';
import { ApiError } from '../../http/envelope';

export const notConfigured = () =>
  new ApiError(BillingCode.NOT_CONFIGURED, 'errors.billing.notConfigured', 503);
export const stripeUnavailable = () =>
  new ApiError(BillingCode.STRIPE_UNAVAILABLE, 'errors.billing.stripeUnavailable', 502);
