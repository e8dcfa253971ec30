import type { Logger } from './logger';
import { outageOf } from './outage';

/**
 * Logs a dependency's outage once when it begins and once when it ends, instead of one error per
 * poll: a job runner polling every second during a one-minute PostgreSQL restart would otherwise
 * write sixty stack traces. Errors that are not outages are logged each time, as errors.
 */
export function outageLog(logger: Pick<Logger, 'warn' | 'error' | 'info'>, what: string) {
  let down: { since: number; count: number } | null = null;
  return {
    /** Reports a failure; returns whether it was an outage. */
    failed(err: unknown, fields: Record<string, unknown> = {}): boolean {
      if (outageOf(err) === null) {
        logger.error({ err, ...fields }, `${what} failed`);
        return false;
      }
      if (!down) {
        down = { since: Date.now(), count: 0 };
        logger.warn(
          { err: (err as Error).message, ...fields },
          `${what}: a dependency is unavailable; trying again`,
        );
      }
      down.count++;
      return true;
    },
    /** Reports a success: ends an outage if there was one. */
    ok() {
      if (!down) return;
      logger.info({ downMs: Date.now() - down.since, failures: down.count }, `${what}: working again`);
      down = null;
    },
  };
}
