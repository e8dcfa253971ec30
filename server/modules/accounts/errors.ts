import { AuthCode } from '../../../common/error-codes';
import { ApiError } from '../errors';

export const AuthError = {
  invalidCredentials: () => new ApiError(AuthCode.INVALID_CREDENTIALS, 'errors.auth.invalidCredentials'),
  wrongPassword: () =>
    new ApiError(AuthCode.WRONG_PASSWORD, 'errors.auth.wrongPassword', {
      fields: { current_password: 'errors.auth.wrongPassword' },
    }),
  googleFailed: () => new ApiError(AuthCode.GOOGLE_FAILED, 'errors.auth.googleFailed'),
  unverified: (email: string) =>
    new ApiError(AuthCode.UNVERIFIED, 'errors.auth.unverified', { email, resend: true }),
  invalidToken: () => new ApiError(AuthCode.INVALID_TOKEN, 'errors.auth.invalidToken'),
  invalidCode: () =>
    new ApiError(AuthCode.INVALID_CODE, 'errors.auth.invalidCode', {
      fields: { code: 'errors.auth.invalidCode' },
    }),
  commonPassword: () =>
    new ApiError(AuthCode.COMMON_PASSWORD, 'validation.passwordCommon', {
      fields: { password: 'validation.passwordCommon' },
    }),
  googleNotConfigured: () => new ApiError(AuthCode.GOOGLE_NOT_CONFIGURED, 'errors.auth.googleNotConfigured'),
  noPassword: () => new ApiError(AuthCode.NO_PASSWORD, 'errors.auth.noPassword'),
};
