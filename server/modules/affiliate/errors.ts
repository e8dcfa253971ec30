import { AffiliateCode } from '../../../common/error-codes';
import { ApiError } from '../../http/envelope';

export const notAffiliate = () =>
  new ApiError(AffiliateCode.NOT_AFFILIATE, 'errors.affiliate.notAffiliate', 404);
