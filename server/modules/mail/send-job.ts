import { RetryableError } from '../jobs/queue';
import type { Mailer, MailMessage } from './mailer';

/**
 * The send-mail job: hands one rendered mail to the mailer. An SMTP server that is away or
 * answers 4xx ("try later") gets the mail again later; a 5xx refusal (no such mailbox) is final.
 */
export async function sendQueuedMail(mailer: Mailer, msg: MailMessage): Promise<void> {
  try {
    await mailer.send(msg);
  } catch (err) {
    const code = (err as { responseCode?: number }).responseCode;
    if (code !== undefined && code >= 500) throw err;
    throw new RetryableError(err instanceof Error ? err.message : String(err));
  }
}
