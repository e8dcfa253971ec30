import { ErrorCode } from '../../common/error-codes';
import { RETRY_AFTER_SEC, outageOf, type Outage } from '../outage';
import { fail, type Envelope } from '../../common/envelope';

export interface OutageAnswer {
  kind: Outage;
  status: 503 | 507;
  retryAfter: number;
  body: Envelope;
}

/**
 * A dependency away (503) or the disk full (507), as the answer a client retries on after
 * Retry-After seconds: translated, never the 500 of a bug. Null for any other error.
 */
export function outageAnswer(err: unknown): OutageAnswer | null {
  const kind = outageOf(err);
  if (!kind) return null;
  const retryAfter = RETRY_AFTER_SEC[kind];
  return kind === 'out_of_space'
    ? {
        kind,
        status: 507,
        retryAfter,
        body: fail(ErrorCode.OUT_OF_SPACE, 'errors.api.outOfSpace', { retry_after: retryAfter }),
      }
    : {
        kind,
        status: 503,
        retryAfter,
        body: fail(ErrorCode.UNAVAILABLE, 'errors.api.unavailable', { retry_after: retryAfter }),
      };
}
