import { ApiError } from '../../http/envelope';

// Stable business codes of the account calls; the middle three digits are the HTTP status.
export const AuthError = {
  invalidCredentials: () => new ApiError(40101, 'errors.auth.invalidCredentials'),
  wrongPassword: () =>
    new ApiError(40102, 'errors.auth.wrongPassword', 401, {
      fields: { current_password: 'errors.auth.wrongPassword' },
    }),
  googleFailed: () => new ApiError(40103, 'errors.auth.googleFailed'),
  unverified: (email: string) => new ApiError(40301, 'errors.auth.unverified', 403, { email, resend: true }),
  invalidToken: () => new ApiError(40001, 'errors.auth.invalidToken'),
  invalidCode: () =>
    new ApiError(40002, 'errors.auth.invalidCode', 400, { fields: { code: 'errors.auth.invalidCode' } }),
  commonPassword: () =>
    new ApiError(42201, 'validation.passwordCommon', 422, {
      fields: { password: 'validation.passwordCommon' },
    }),
  googleNotConfigured: () => new ApiError(50301, 'errors.auth.googleNotConfigured'),
  noPassword: () => new ApiError(40003, 'errors.auth.noPassword'),
};
