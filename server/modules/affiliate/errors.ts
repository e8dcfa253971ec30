import { ApiError } from '../../http/envelope';

/** Affiliate refusals; the middle three digits are the HTTP status. */
export const AffiliateCode = {
  TERMS_REQUIRED: 42231,
  CODE_TAKEN: 40931,
  ALREADY_AFFILIATE: 40932,
  PAYOUT_OPEN: 40933,
  NOT_AFFILIATE: 40431,
  BELOW_MINIMUM: 40331,
  NO_PAYOUT_ACCOUNT: 40332,
  TOO_MANY_CODES: 40333,
  SETTLEMENT_NOT_FOUND: 40432,
} as const;

export const notAffiliate = () =>
  new ApiError(AffiliateCode.NOT_AFFILIATE, 'errors.affiliate.notAffiliate', 404);
