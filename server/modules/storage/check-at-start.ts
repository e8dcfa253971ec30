import type { Logger } from '../../logger';
import { outageOf } from '../../outage';
import type { Storage } from './storage';

/** The media store cannot be used: the process stops at start with what to fix. */
export class StoreUnusableError extends Error {
  constructor(what: string, cause: unknown) {
    super(`The media store (${what}) cannot be used: ${describe(cause)}`, { cause });
    this.name = 'StoreUnusableError';
  }
}

function describe(err: unknown): string {
  const e = err as { name?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const status = e?.$metadata?.httpStatusCode;
  if (status === 404 || e?.name === 'NotFound' || e?.name === 'NoSuchBucket')
    return 'the bucket does not exist (create it, or correct S3_BUCKET / S3_ENDPOINT)';
  if (status === 403 || status === 401)
    return 'access refused (check S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY and the bucket policy)';
  return e?.message || e?.name || String(err);
}

/**
 * Checked once at start (the bucket exists and answers, or DATA_DIR is writable), so a wrong
 * setting stops the process with its reason instead of failing every upload later. A store that
 * cannot be reached yet (starting with the machine) is waited for up to `waitMs`.
 */
export async function checkStoreAtStart(
  storage: Storage,
  what: string,
  opts: { waitMs: number; logger: Pick<Logger, 'warn'> },
): Promise<void> {
  const deadline = Date.now() + opts.waitMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await storage.check();
      return;
    } catch (err) {
      if (outageOf(err) !== 'unavailable' || Date.now() >= deadline) throw new StoreUnusableError(what, err);
      opts.logger.warn(
        { err: (err as Error).message, attempt },
        'the media store cannot be reached yet; trying again',
      );
      await new Promise((r) => setTimeout(r, Math.min(5_000, 500 * attempt)));
    }
  }
}
