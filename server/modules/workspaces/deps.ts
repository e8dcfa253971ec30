import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { JobQueue } from '../jobs/queue';
import type { MailMessage } from '../mail/mailer';
import type { Storage } from '../storage/storage';

/** What the workspace rules need: the database, mail, and the media a deleted workspace leaves. */
export interface WorkspaceDeps {
  db: Db;
  storage: Storage;
  queue: JobQueue;
  logger: Logger;
  now: () => Date;
  /** Queues a mail (a durable send-mail job). */
  sendMail(msg: MailMessage): Promise<void>;
  appName: string;
  /** Told when someone joins a workspace (the member.added webhook); never throws. */
  memberAdded?: (event: { workspaceId: string; userId: string; role: string }) => Promise<void>;
}
