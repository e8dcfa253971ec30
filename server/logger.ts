import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * What every log line written while a request or a job runs carries: `reqId` (the request,
 * server/http/request-log.ts, also stored with each job it queues), `jobId`, `jobName`, `jobKey`
 * (the job, modules/jobs/run-job.ts). One id leads from the request that started a transcription
 * to every line its job wrote, in whichever process ran it.
 */
const context = new AsyncLocalStorage<Readonly<Record<string, unknown>>>();

/** JSON lines on stdout (or `destination`: tests read what was logged). */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'clipscribe' },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin: () => context.getStore() ?? {},
    },
    destination,
  );
}

/** Runs `fn` with these fields added to every log line written meanwhile (and in what it awaits). */
export function withLogContext<T>(fields: Record<string, unknown>, fn: () => T): T {
  const defined = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined && v !== null));
  return context.run({ ...context.getStore(), ...defined }, fn);
}

/** The id of the request being handled, if any (stored with the jobs it queues). */
export const currentRequestId = (): string | undefined => {
  const id = context.getStore()?.reqId;
  return typeof id === 'string' ? id : undefined;
};
