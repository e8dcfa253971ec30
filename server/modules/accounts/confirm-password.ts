import { AuthCode } from '../../../common/error-codes';
import type { User } from '../../db/schema';
import { verifyPassword } from '../auth/passwords';
import { assertAllowed, recordFailure, type Limiters } from '../auth/rate-limits';
import { ApiError } from '../errors';
import { AuthError } from './errors';

/**
 * A signed-in person proving it is still them before something sensitive (revealing a webhook
 * secret): the password, 5 wrong tries per 15 minutes per account, then 429 with Retry-After.
 * An account without a password (Google sign-in) is told to set one first.
 */
export async function confirmPassword(
  deps: { limiters: Limiters },
  user: User,
  password: string,
): Promise<void> {
  if (!user.passwordHash) throw AuthError.noPassword();
  const checks: [keyof Limiters, string][] = [['confirmAccount', user.id]];
  await assertAllowed(deps.limiters, checks);
  if (!(await verifyPassword(user.passwordHash, password))) {
    await recordFailure(deps.limiters, checks);
    throw new ApiError(AuthCode.WRONG_PASSWORD, 'errors.auth.wrongPassword', {
      fields: { password: 'errors.auth.wrongPassword' },
    });
  }
}
