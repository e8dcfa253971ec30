import type { Server } from 'node:http';
import type { Logger } from './logger';

/**
 * SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish, then run the
 * closing steps in order (job runner, database). A second signal or the time-out forces exit.
 */
export function createShutdown(opts: {
  server: Server;
  logger: Logger;
  timeoutMs: number;
  steps: Array<() => Promise<void>>;
}): () => Promise<void> {
  let closing: Promise<void> | null = null;
  const shutdown = () => {
    if (closing) return closing;
    opts.logger.info('shutting down');
    const force = setTimeout(() => {
      opts.logger.warn('shutdown time-out: closing remaining connections');
      opts.server.closeAllConnections();
    }, opts.timeoutMs);
    force.unref();
    closing = new Promise<void>((resolve) => {
      opts.server.close(() => resolve());
      opts.server.closeIdleConnections();
    }).then(async () => {
      for (const step of opts.steps) {
        try {
          await step();
        } catch (err) {
          opts.logger.error({ err }, 'shutdown step failed');
        }
      }
      clearTimeout(force);
      opts.logger.info('stopped');
    });
    return closing;
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      process.once(signal, () => process.exit(1));
      void shutdown().then(() => process.exit(0));
    });
  }
  return shutdown;
}
