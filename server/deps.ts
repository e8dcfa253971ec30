import path from 'node:path';
import { Redis } from 'ioredis';
import type { Db } from './db/client';
import type { Env } from './env';
import type { Logger } from './logger';
import type { AccountDeps } from './modules/accounts/deps';
import { createLimiters } from './modules/auth/rate-limits';
import { createMailer, type Mailer } from './modules/mail/mailer';

export interface ServiceDeps {
  accounts: AccountDeps;
  close(): Promise<void>;
}

/** Wires the modules' dependencies from the environment: embedded defaults unless configured. */
export function buildServiceDeps(
  env: Env,
  db: Db,
  logger: Logger,
  overrides: { mailer?: Mailer; now?: () => Date } = {},
): ServiceDeps {
  const redis = env.REDIS_URL
    ? new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2, enableOfflineQueue: false })
    : null;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const mailer =
    overrides.mailer ??
    createMailer({
      smtpUrl: env.SMTP_URL,
      from: env.MAIL_FROM,
      outboxDir: path.join(env.DATA_DIR, 'outbox'),
      logger,
    });
  const accounts: AccountDeps = {
    db,
    mailer,
    limiters: createLimiters(redis),
    appName: env.APP_NAME,
    google: env.GOOGLE_CLIENT_ID
      ? {
          clientId: env.GOOGLE_CLIENT_ID,
          clientSecret: env.GOOGLE_CLIENT_SECRET,
          authEndpoint: env.GOOGLE_AUTH_URL,
          tokenEndpoint: env.GOOGLE_TOKEN_URL,
          jwksUri: env.GOOGLE_JWKS_URL,
        }
      : null,
    now: overrides.now ?? (() => new Date()),
  };
  return {
    accounts,
    async close() {
      mailer.close();
      if (redis) await redis.quit().catch(() => undefined);
    },
  };
}
