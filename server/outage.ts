// Failures that are not the request's fault nor a bug: a dependency away for a while (PostgreSQL
// restarting, Redis unreachable, the object store down) or the disk full. The HTTP edge answers
// them with a status a client retries on (503 / 507 with Retry-After), job runners try again later,
// instead of a 500 or a job failed for good.

export type Outage = 'unavailable' | 'out_of_space';

/** PostgreSQL's SQLSTATEs for a server going away or refusing connections for now. */
const PG_UNAVAILABLE = new Set([
  '57P01', // admin_shutdown (a restart)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, recovering)
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300', // too_many_connections
  '40001', // serialization_failure: the same transaction again succeeds
  '40P01', // deadlock_detected
]);
const PG_OUT_OF_SPACE = new Set(['53100', '53200']); // disk_full, out_of_memory
const NET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const MESSAGES = [
  /Connection terminated/i, // node-postgres
  /timeout exceeded when trying to connect/i, // node-postgres pool
  /Client has encountered a connection error/i,
  /Connection is closed/i, // ioredis
  /enableOfflineQueue options is false/i, // ioredis, Redis away
  /max retries per request/i, // ioredis MaxRetriesPerRequestError
  /queue is unavailable/i, // QueueUnavailableError
];

/** What kind of outage `err` (or anything in its cause chain) is, or null for any other error. */
export function outageOf(err: unknown): Outage | null {
  for (let e: unknown = err, depth = 0; e && depth < 6; depth++) {
    const { code, name, message, $metadata } = e as {
      code?: unknown;
      name?: unknown;
      message?: unknown;
      $metadata?: { httpStatusCode?: number };
    };
    if (code === 'ENOSPC' || code === 'EDQUOT') return 'out_of_space';
    if (typeof code === 'string' && PG_OUT_OF_SPACE.has(code)) return 'out_of_space';
    if (typeof code === 'string' && (PG_UNAVAILABLE.has(code) || NET_CODES.has(code))) return 'unavailable';
    if (
      name === 'MaxRetriesPerRequestError' ||
      name === 'TimeoutError' ||
      name === 'QueueUnavailableError' ||
      name === 'StoreDownError'
    )
      return 'unavailable';
    // The object store answering that it cannot serve now (S3's 503 SlowDown, a proxy's 502/504).
    if ($metadata?.httpStatusCode && [500, 502, 503, 504].includes($metadata.httpStatusCode))
      return 'unavailable';
    if (typeof message === 'string') {
      if (/No space left on device/i.test(message)) return 'out_of_space';
      if (MESSAGES.some((re) => re.test(message))) return 'unavailable';
    }
    e = (e as { cause?: unknown }).cause ?? (e as { errors?: unknown[] }).errors?.[0];
  }
  return null;
}

/** Seconds a client should wait before trying again. */
export const RETRY_AFTER_SEC: Record<Outage, number> = { unavailable: 5, out_of_space: 60 };

/**
 * An outage of this deployment's own services (the database, Redis, the object store), as a job
 * runner tells it from a job's own failure: a webhook endpoint or a link that refuses connections
 * is the job's business (its retries, its reason), not a reason to put the job back unspent.
 */
export function isDependencyOutage(err: unknown): boolean {
  if (outageOf(err) !== 'unavailable') return false;
  for (let e: unknown = err, depth = 0; e && depth < 6; depth++) {
    const { name, message, $metadata, severity } = e as {
      name?: unknown;
      message?: unknown;
      $metadata?: unknown;
      severity?: unknown;
    };
    if (
      name === 'DrizzleQueryError' ||
      name === 'MaxRetriesPerRequestError' ||
      name === 'QueueUnavailableError' ||
      name === 'StoreDownError' // the object store, as the last call found it (storage/store-health.ts)
    )
      return true;
    // node-postgres' server errors carry a severity; the AWS SDK's carry $metadata.
    if (typeof severity === 'string' || $metadata !== undefined) return true;
    if (
      typeof message === 'string' &&
      /Connection terminated|enableOfflineQueue|Connection is closed/i.test(message)
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
