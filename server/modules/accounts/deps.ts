import type { Locale } from '../../../common/locales';
import type { Db } from '../../db/client';
import type { MailMessage } from '../mail/mailer';
import type { Limiters } from '../auth/rate-limits';
import type { GoogleConfig } from '../auth/google';
import type { AccountMailJob } from './account-mail';

/** What the account rules need from the outside world; tests pass real PGlite and SMTP. */
export interface AccountDeps {
  db: Db;
  /** Queues a mail (a durable send-mail job); resolves once it is queued, not sent. */
  sendMail(msg: MailMessage): Promise<void>;
  /** Queues the address-dependent part of sign-up, re-send and forgot-password (account-mail job). */
  queueAccountMail(job: AccountMailJob): Promise<void>;
  limiters: Limiters;
  appName: string;
  google: GoogleConfig | null;
  now: () => Date;
  /**
   * After a deleted account's rows are gone: removes its files no remaining row names (its team
   * uploads stay), and `alsoKeys` (files of team workspaces deleted with it).
   */
  removeUserFiles?: (userId: string, alsoKeys: string[]) => Promise<void>;
  /** Ends paid subscriptions before the account goes, so nobody is billed for a deleted account. */
  endSubscriptions?: (userId: string) => Promise<void>;
}

/** Per-request facts the rules use: where links point, who asks, in which language. */
export interface RequestMeta {
  origin: string;
  ip: string;
  userAgent: string | null;
  lang: Locale;
}
