// Outgoing mail. With an SMTP URL, mails go through a pooled nodemailer SMTP
// transport. Without one (local development), every mail is rendered to a real
// RFC 822 message and written to an .eml file in the outbox directory, and the
// links of its text part are logged so that verification and reset links can
// be followed without a mail server.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { SendMailOptions, Transporter } from 'nodemailer';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the mail, or once the .eml file is written. */
  send(msg: MailMessage): Promise<void>;
  /** Closes pooled SMTP connections; later sends reject. */
  close(): void;
}

/** The subset of a pino logger the mailer uses. */
export interface MailerLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

export interface MailerOptions {
  /** smtp://user:pass@host:587 or smtps://user:pass@host:465; query parameters become transport options. */
  smtpUrl?: string;
  /** From header, e.g. 'ClipScribe <no-reply@example.com>'. */
  from: string;
  /** Directory for .eml files when smtpUrl is not set; created on demand. */
  outboxDir: string;
  logger: MailerLogger;
}

/** RFC 3834: marks the mail as automated so auto-responders stay quiet. */
const HEADERS = { 'Auto-Submitted': 'auto-generated' };

/**
 * nodemailer (≈ 15 MB) is loaded with the first mail, not at start: most processes send few mails
 * (docs/decisions/0015-lean-by-default.md).
 */
function lazyTransport(options: object, onCreate: (t: Transporter) => void = () => undefined) {
  let transport: Promise<Transporter> | undefined;
  let made: Transporter | undefined;
  return {
    async sendMail(mail: SendMailOptions) {
      transport ??= import('nodemailer').then(({ createTransport }) => {
        made = createTransport(options);
        onCreate(made);
        return made;
      });
      return (await transport).sendMail(mail);
    },
    close: () => made?.close(),
  };
}

export function createMailer(opts: MailerOptions): Mailer {
  return opts.smtpUrl ? createSmtpMailer(opts, opts.smtpUrl) : createOutboxMailer(opts);
}

function createSmtpMailer(opts: MailerOptions, smtpUrl: string): Mailer {
  if (!/^smtps?:\/\//i.test(smtpUrl)) {
    throw new Error('mail: smtpUrl must start with smtp:// or smtps://');
  }
  const transport = lazyTransport({ url: smtpUrl, pool: true }, (t) =>
    // An 'error' event without a listener would crash the process.
    t.on('error', (err: unknown) => opts.logger.warn({ err }, 'mail transport error')),
  );
  return closable(transport, async (msg) => {
    const info = await transport.sendMail(sendOptions(opts, msg));
    opts.logger.info({ to: msg.to, subject: msg.subject, messageId: info.messageId }, 'mail sent');
  });
}

function createOutboxMailer(opts: MailerOptions): Mailer {
  const transport = lazyTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  opts.logger.warn(
    { outboxDir: opts.outboxDir },
    'no SMTP server configured: mails are written to the outbox',
  );
  return closable(transport, async (msg) => {
    const info = await transport.sendMail(sendOptions(opts, msg));
    if (!Buffer.isBuffer(info.message)) throw new Error('mail: stream transport did not return a buffer');

    await mkdir(opts.outboxDir, { recursive: true });
    const name = `${new Date().toISOString().replace(/:/g, '-')}-${randomBytes(3).toString('hex')}.eml`;
    const file = path.join(opts.outboxDir, name);
    // Written aside and renamed, so a reader of the outbox never sees half a mail.
    await writeFile(`${file}.part`, info.message, { flag: 'wx' });
    await rename(`${file}.part`, file);

    opts.logger.info(
      { to: msg.to, subject: msg.subject, links: extractLinks(msg.text), file },
      'mail written to outbox',
    );
  });
}

/** What both transports are given for one message. */
function sendOptions(opts: MailerOptions, msg: MailMessage): SendMailOptions {
  return {
    from: opts.from,
    to: msg.to,
    subject: msg.subject,
    text: msg.text,
    html: msg.html,
    headers: HEADERS,
  };
}

/** A mailer over `transport` whose sends reject once it is closed. */
function closable(transport: { close(): void }, deliver: (msg: MailMessage) => Promise<void>): Mailer {
  let closed = false;
  return {
    async send(msg) {
      if (closed) throw new Error('mail: mailer is closed');
      await deliver(msg);
    },
    close() {
      closed = true;
      transport.close();
    },
  };
}

/** http(s) URLs in plain text, in order of appearance, without duplicates or trailing punctuation. */
export function extractLinks(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/https?:\/\/[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+/g)) {
    let url = match[0].replace(/[.,;:!?'"]+$/, '');
    // Drop a closing parenthesis that belongs to the surrounding sentence.
    while (url.endsWith(')') && count(url, '(') < count(url, ')')) url = url.slice(0, -1);
    found.add(url);
  }
  return [...found];
}

function count(s: string, ch: string): number {
  return s.split(ch).length - 1;
}
