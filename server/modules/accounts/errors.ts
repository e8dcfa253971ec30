import { AuthCode } from '../../../common/error-codes';
import { ApiError } from '../../http/envelope';

export const AuthError = {
  invalidCredentials: () => new ApiError(AuthCode.INVALID_CREDENTIALS, 'errors.auth.invalidCredentials'),
  wrongPassword: () =>
    new ApiError(AuthCode.WRONG_PASSWORD, 'errors.auth.wrongPassword', 401, {
      fields: { current_password: 'errors.auth.wrongPassword' },
    }),
  googleFailed: () => new ApiError(AuthCode.GOOGLE_FAILED, 'errors.auth.googleFailed'),
  unverified: (email: string) =>
    new ApiError(AuthCode.UNVERIFIED, 'errors.auth.unverified', 403, { email, resend: true }),
  invalidToken: () => new ApiError(AuthCode.INVALID_TOKEN, 'errors.auth.invalidToken'),
  invalidCode: () =>
    new ApiError(AuthCode.INVALID_CODE, 'errors.auth.invalidCode', 400, {
      fields: { code: 'errors.auth.invalidCode' },
    }),
  commonPassword: () =>
    new ApiError(AuthCode.COMMON_PASSWORD, 'validation.passwordCommon', 422, {
      fields: { password: 'validation.passwordCommon' },
    }),
  googleNotConfigured: () => new ApiError(AuthCode.GOOGLE_NOT_CONFIGURED, 'errors.auth.googleNotConfigured'),
  noPassword: () => new ApiError(AuthCode.NO_PASSWORD, 'errors.auth.noPassword'),
};
