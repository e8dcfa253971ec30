import type { Db } from '../../db/client';
import type { User } from '../../db/schema';
import type { Logger } from '../../logger';
import type { JobQueue } from '../jobs/queue';
import type { MailMessage } from '../mail/mailer';
import type { PrivateAllowance } from '../outbound/address';

export interface WebhookDeps {
  db: Db;
  queue: JobQueue;
  logger: Logger;
  now: () => Date;
  /** ALLOW_PRIVATE_URLS. */
  allowPrivate: PrivateAllowance;
  /** Waits before attempts 2, 3, …: the number of retries is its length. */
  retryDelaysMs: number[];
  /** Deliveries in a row that fail after their last retry before the endpoint is turned off. */
  disableAfter: number;
  timeoutMs: number;
  sendMail: (msg: MailMessage) => Promise<void>;
  appName: string;
  /** For the link in the mail that says an endpoint was turned off. */
  publicUrl: string | null;
  /** Throws unless `password` is the user's (modules/accounts/confirm-password.ts). */
  confirmPassword: (user: User, password: string) => Promise<void>;
}
