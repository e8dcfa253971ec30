import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { waitFor } from '../../server/test/wait';

/** The newest mail to `to` in the server's outbox (no SMTP configured), waiting up to 10 s. */
export async function mailTo(dataDir: string, to: string): Promise<ParsedMail> {
  const dir = path.join(dataDir, 'outbox');
  return waitFor(
    async () => {
      let files: string[] = [];
      try {
        files = readdirSync(dir)
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse();
      } catch {
        files = [];
      }
      for (const f of files) {
        const mail = await simpleParser(readFileSync(path.join(dir, f)));
        // A mail still being written parses without its headers: skip it until it is complete.
        if (mail.to && JSON.stringify(mail.to).includes(to)) return mail;
      }
      return undefined;
    },
    { ms: 10_000, everyMs: 200, what: `a mail to ${to} in ${dir}` },
  );
}
