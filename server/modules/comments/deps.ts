import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { MailMessage } from '../mail/mailer';

/** What comments need: the database, the mail queue (mentions) and the webhooks. */
export interface CommentDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
  /** Queues a mail (a durable send-mail job). */
  sendMail(msg: MailMessage): Promise<void>;
  appName: string;
  /** Told when a comment is written (the comment.created webhook); never throws. */
  commentCreated?: (workspaceId: string, data: Record<string, unknown>) => Promise<void>;
}
