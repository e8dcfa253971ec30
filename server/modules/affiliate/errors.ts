import { AffiliateCode } from '../../../common/error-codes';
import { ApiError } from '../errors';

export const notAffiliate = () => new ApiError(AffiliateCode.NOT_AFFILIATE, 'errors.affiliate.notAffiliate');
