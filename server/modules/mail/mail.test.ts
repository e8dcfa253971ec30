import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import pino from 'pino';
import { SMTPServer, type SMTPServerEnvelope } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, LOCALE_TAGS } from '../../../common/locales';
import { createMailer, extractLinks, type Mailer, type MailerLogger } from './mailer';
import { MAIL_STRINGS, interpolate } from './strings';
import {
  escapeHtml,
  renderAccountExistsMail,
  renderChoosePasswordMail,
  renderResetMail,
  renderVerificationMail,
} from './templates';

// Compile-time check: the app's pino logger satisfies the mailer's logger type.
const pinoIsAMailerLogger: MailerLogger = pino({ enabled: false });
void pinoIsAMailerLogger;

const FROM = 'ClipScribe <no-reply@clipscribe.test>';
const LINK = 'https://clipscribe.test/de/verify?token=abc_DEF-123&uid=42';

function fakeLogger() {
  const info: Array<{ obj: Record<string, unknown>; msg?: string }> = [];
  const warn: Array<{ obj: Record<string, unknown>; msg?: string }> = [];
  const logger: MailerLogger = {
    info: (obj, msg) => info.push({ obj: obj as Record<string, unknown>, msg }),
    warn: (obj, msg) => warn.push({ obj: obj as Record<string, unknown>, msg }),
  };
  return { logger, info, warn };
}

function firstAddress(field: AddressObject | AddressObject[] | undefined): string | undefined {
  const obj = Array.isArray(field) ? field[0] : field;
  return obj?.value[0]?.address;
}

function placeholders(s: string): string[] {
  return [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

describe('mail strings', () => {
  const enKeys = Object.keys(MAIL_STRINGS.en).sort();

  it('has an entry for every interface language and nothing else', () => {
    expect(Object.keys(MAIL_STRINGS).sort()).toEqual([...LOCALES].sort());
  });

  it.each(LOCALES)('%s has exactly the keys of en, all non-empty', (lang) => {
    const strings = MAIL_STRINGS[lang];
    expect(Object.keys(strings).sort()).toEqual(enKeys);
    for (const value of Object.values(strings)) {
      expect(typeof value).toBe('string');
      expect(value.trim()).not.toBe('');
    }
  });

  it.each(LOCALES)('%s uses the same placeholders as en', (lang) => {
    for (const key of enKeys as Array<keyof typeof MAIL_STRINGS.en>) {
      expect(placeholders(MAIL_STRINGS[lang][key]), `${lang}.${key}`).toEqual(
        placeholders(MAIL_STRINGS.en[key]),
      );
    }
  });

  it('translations are not copies of the English text', () => {
    for (const lang of LOCALES.filter((l) => l !== 'en')) {
      expect(MAIL_STRINGS[lang].verifyButton, lang).not.toBe(MAIL_STRINGS.en.verifyButton);
      expect(MAIL_STRINGS[lang].resetIgnore, lang).not.toBe(MAIL_STRINGS.en.resetIgnore);
    }
  });

  it('interpolate replaces known placeholders and keeps unknown ones', () => {
    expect(interpolate('{{app}}: {{ code }} {{other}}', { app: 'A$&', code: '123456' })).toBe(
      'A$&: 123456 {{other}}',
    );
    expect(interpolate('{{toString}}', {})).toBe('{{toString}}');
  });
});

describe('mail templates', () => {
  it('renders the verification mail with code, link and the localized texts', () => {
    const mail = renderVerificationMail({ lang: 'fr', appName: 'ClipScribe', code: '482913', link: LINK });
    expect(mail.subject).toBe('Confirmez votre adresse e-mail pour ClipScribe');
    expect(mail.text).toContain('482913');
    expect(mail.text).toContain(LINK);
    expect(mail.text).toContain(MAIL_STRINGS.fr.verifyExpiry);
    expect(mail.html).toContain('<html lang="fr"');
    expect(mail.html).toContain('>482913</div>');
    expect(mail.html).toContain(`href="${escapeHtml(LINK)}"`);
    expect(mail.html).toContain(escapeHtml(MAIL_STRINGS.fr.verifyButton));
    expect(mail.html).toContain('max-width:560px');
    expect(mail.html).toContain('#2563eb');
    expect(mail.html).toMatch(/font-family:[^"]*monospace[^"]*"[^>]*>482913</);
  });

  it('renders the reset mail with the 30-minute notice and the ignore hint', () => {
    const link = 'https://clipscribe.test/ko/reset?token=xyz';
    const mail = renderResetMail({ lang: 'ko', appName: 'ClipScribe', link });
    expect(mail.subject).toBe('[ClipScribe] 비밀번호 재설정 안내');
    expect(mail.text).toContain(link);
    expect(mail.text).toContain(MAIL_STRINGS.ko.resetExpiry);
    expect(mail.text).toContain(MAIL_STRINGS.ko.resetIgnore);
    expect(mail.html).toContain('<html lang="ko"');
    expect(mail.html).toContain(`href="${link}"`);
    expect(mail.html).toContain(MAIL_STRINGS.ko.resetButton);
  });

  it('renders the choose-password and account-exists mails without a code', () => {
    const choose = renderChoosePasswordMail({
      lang: 'ja',
      appName: 'ClipScribe',
      link: 'https://x.test/r?t=1',
    });
    expect(choose.subject).toBe(interpolate(MAIL_STRINGS.ja.chooseSubject, { app: 'ClipScribe' }));
    expect(choose.text).toContain('https://x.test/r?t=1');
    expect(choose.html).toContain(MAIL_STRINGS.ja.chooseButton);
    const exists = renderAccountExistsMail({
      lang: 'es',
      appName: 'ClipScribe',
      loginLink: 'https://x.test/es/login',
      resetLink: 'https://x.test/es/forgetPassword',
    });
    expect(exists.subject).toBe(interpolate(MAIL_STRINGS.es.existsSubject, { app: 'ClipScribe' }));
    expect(exists.text).toContain('https://x.test/es/login');
    expect(exists.html).toContain('href="https://x.test/es/forgetPassword"');
    for (const m of [choose, exists]) expect(m.text).not.toMatch(/\b\d{6}\b/);
  });

  it('uses BCP-47 tags for the lang attribute', () => {
    for (const lang of LOCALES) {
      const mail = renderResetMail({ lang, appName: 'X', link: 'https://x.test/r' });
      expect(mail.html).toContain(`<html lang="${LOCALE_TAGS[lang]}"`);
      expect(mail.subject).toBe(interpolate(MAIL_STRINGS[lang].resetSubject, { app: 'X' }));
    }
    expect(renderResetMail({ lang: 'tw', appName: 'X', link: 'https://x.test/r' }).html).toContain(
      'lang="zh-Hant"',
    );
  });

  it('falls back to English for unknown languages', () => {
    for (const lang of ['xx', '', 'EN', 'pt-BR', '__proto__']) {
      const mail = renderVerificationMail({ lang, appName: 'ClipScribe', code: '111111', link: LINK });
      expect(mail.subject, lang).toBe('Confirm your email address for ClipScribe');
      expect(mail.html, lang).toContain('<html lang="en"');
    }
  });

  it('HTML-escapes every interpolated value', () => {
    const appName = '<b>&';
    const link = 'https://x.test/v?a=1&b="2"';
    const mail = renderVerificationMail({ lang: 'en', appName, code: '<i>1', link });
    expect(mail.html).toContain('&lt;b&gt;&amp;');
    expect(mail.html).not.toContain('<b>');
    expect(mail.html).not.toContain('<i>');
    expect(mail.html).toContain('&lt;i&gt;1');
    expect(mail.html).toContain('href="https://x.test/v?a=1&amp;b=&quot;2&quot;"');
    // The subject and text part are not HTML and keep the raw value.
    expect(mail.subject).toBe('Confirm your email address for <b>&');
    expect(mail.text).toContain(link);

    const reset = renderResetMail({ lang: 'de', appName, link: 'https://x.test/r' });
    expect(reset.html).toContain('&lt;b&gt;&amp;');
    expect(reset.html).not.toContain('<b>');
  });

  it('rejects links that are not absolute http(s) URLs', () => {
    expect(() => renderResetMail({ lang: 'en', appName: 'X', link: '/reset?token=1' })).toThrow(TypeError);
    expect(() => renderResetMail({ lang: 'en', appName: 'X', link: 'javascript:alert(1)' })).toThrow(
      TypeError,
    );
  });
});

describe('extractLinks', () => {
  it('finds http(s) links without surrounding punctuation', () => {
    expect(
      extractLinks(
        'Go to https://a.test/x?y=1&z=2. Or (see http://b.test/p_(1)). 見る https://c.test/ja。 ftp://no',
      ),
    ).toEqual(['https://a.test/x?y=1&z=2', 'http://b.test/p_(1)', 'https://c.test/ja']);
  });
});

describe('mailer over SMTP', () => {
  const received: Array<{ raw: Buffer; envelope: SMTPServerEnvelope }> = [];
  let server: SMTPServer;
  let port: number;
  let mailer: Mailer | undefined;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('error', callback);
        stream.on('end', () => {
          received.push({ raw: Buffer.concat(chunks), envelope: session.envelope });
          callback();
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    port = (server.server.address() as AddressInfo).port;
  });

  afterEach(() => {
    mailer?.close();
    mailer = undefined;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers a German verification mail that parses back to the same content', async () => {
    const { logger } = fakeLogger();
    mailer = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      from: FROM,
      outboxDir: '/nonexistent/should-not-be-used',
      logger,
    });
    const mail = renderVerificationMail({ lang: 'de', appName: 'ClipScribe', code: '507318', link: LINK });
    await mailer.send({ to: 'anna@example.test', ...mail });

    expect(received).toHaveLength(1);
    const { raw, envelope } = received[0]!;
    expect(envelope.mailFrom && envelope.mailFrom.address).toBe('no-reply@clipscribe.test');
    expect(envelope.rcptTo.map((r) => r.address)).toEqual(['anna@example.test']);

    const parsed: ParsedMail = await simpleParser(raw);
    expect(firstAddress(parsed.to)).toBe('anna@example.test');
    expect(parsed.from?.value[0]?.address).toBe('no-reply@clipscribe.test');
    expect(parsed.from?.value[0]?.name).toBe('ClipScribe');
    expect(parsed.subject).toBe(interpolate(MAIL_STRINGS.de.verifySubject, { app: 'ClipScribe' }));
    expect(parsed.subject).toBe('E-Mail-Adresse für ClipScribe bestätigen');
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');

    expect(parsed.text).toBeTruthy();
    expect(parsed.text).toContain('507318');
    expect(parsed.text).toContain(LINK);
    expect(parsed.text).toContain(MAIL_STRINGS.de.verifyExpiry);

    expect(typeof parsed.html).toBe('string');
    const html = parsed.html as string;
    expect(html).toContain('507318');
    expect(html).toContain(`href="${escapeHtml(LINK)}"`);
    expect(html).toContain('<html lang="de"');
    expect(html).toContain(escapeHtml(MAIL_STRINGS.de.verifyButton));
    // Entity-decoded, one of the hrefs is exactly the link.
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(hrefs).toContain(LINK);
  });

  it('rejects sends after close', async () => {
    const { logger } = fakeLogger();
    const m = createMailer({
      smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
      from: FROM,
      outboxDir: '/x',
      logger,
    });
    m.close();
    await expect(m.send({ to: 'a@example.test', subject: 's', text: 't', html: '<p>t</p>' })).rejects.toThrow(
      /closed/,
    );
  });

  it('rejects non-SMTP URLs', () => {
    const { logger } = fakeLogger();
    expect(() =>
      createMailer({ smtpUrl: 'http://127.0.0.1:25', from: FROM, outboxDir: '/x', logger }),
    ).toThrow(/smtp/);
  });
});

describe('mailer without SMTP (outbox)', () => {
  let root: string;

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'clipscribe-mail-'));
  });

  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('writes an .eml file that parses, and logs the links of the text part', async () => {
    const outboxDir = path.join(root, 'outbox'); // does not exist yet
    const { logger, info } = fakeLogger();
    const mailer = createMailer({ from: FROM, outboxDir, logger });
    const link = 'https://clipscribe.test/ja/reset?token=tok_123&x=1';
    const mail = renderResetMail({ lang: 'ja', appName: 'ClipScribe', link });
    await mailer.send({ to: 'taro@example.test', ...mail });
    mailer.close();

    const files = readdirSync(outboxDir);
    expect(files).toHaveLength(1);
    const name = files[0]!;
    expect(name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}\.\d{3}Z-[0-9a-f]{6}\.eml$/);

    const raw = readFileSync(path.join(outboxDir, name));
    expect(raw.includes('\r\n')).toBe(false); // newline: 'unix'
    const parsed = await simpleParser(raw);
    expect(firstAddress(parsed.to)).toBe('taro@example.test');
    expect(parsed.from?.value[0]?.address).toBe('no-reply@clipscribe.test');
    expect(parsed.subject).toBe('【ClipScribe】パスワード再設定のご案内');
    expect(parsed.text).toContain(link);
    expect(parsed.text).toContain(MAIL_STRINGS.ja.resetExpiry);
    expect(parsed.html).toContain(`href="${escapeHtml(link)}"`);
    expect(parsed.html).toContain('<html lang="ja"');

    const entry = info.find((e) => e.msg === 'mail written to outbox');
    expect(entry).toBeDefined();
    expect(entry!.obj).toMatchObject({ to: 'taro@example.test', subject: mail.subject, links: [link] });
    expect(entry!.obj.file).toBe(path.join(outboxDir, name));
  });

  it('gives every mail its own file', async () => {
    const outboxDir = path.join(root, 'many');
    const { logger, info } = fakeLogger();
    const mailer = createMailer({ from: FROM, outboxDir, logger });
    const mails = ['1', '2', '3'].map((n) =>
      renderVerificationMail({
        lang: 'vi',
        appName: 'ClipScribe',
        code: `00000${n}`,
        link: `https://c.test/v?t=${n}`,
      }),
    );
    await Promise.all(mails.map((m, i) => mailer.send({ to: `u${i}@example.test`, ...m })));
    mailer.close();

    expect(readdirSync(outboxDir)).toHaveLength(3);
    const logged = info.filter((e) => e.msg === 'mail written to outbox').map((e) => e.obj.links);
    expect(logged).toHaveLength(3);
    expect(logged).toEqual(
      expect.arrayContaining([['https://c.test/v?t=1'], ['https://c.test/v?t=2'], ['https://c.test/v?t=3']]),
    );
  });
});
