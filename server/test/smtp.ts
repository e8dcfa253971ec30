import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** A real SMTP server on loopback that keeps every message it receives, parsed. */
export async function startSmtp() {
  const messages: ParsedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          messages.push(mail);
          waiters.splice(0).forEach((w) => w());
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    messages,
    /** The newest message to `to`, waiting up to 5 s for it to arrive. */
    async next(to: string, after = 0): Promise<ParsedMail> {
      const deadline = Date.now() + 5000;
      for (;;) {
        const found = messages
          .slice(after)
          .filter((m) => JSON.stringify(m.to).includes(to))
          .at(-1);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

export function codeFrom(mail: ParsedMail): string {
  const m = /\b(\d{6})\b/.exec(mail.text ?? '');
  if (!m) throw new Error('no code in mail');
  return m[1]!;
}

export function linkFrom(mail: ParsedMail): URL {
  const m = /https?:\/\/\S+/.exec(mail.text ?? '');
  if (!m) throw new Error('no link in mail');
  return new URL(m[0]);
}
