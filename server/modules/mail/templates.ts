// Renders the transactional mails (subject, plain-text part, HTML part) in the
// recipient's interface language. The HTML is deliberately old-fashioned —
// table layout and inline styles — because that is what mail clients render
// reliably. Every interpolated value is HTML-escaped.
import { LOCALE_TAGS, isLocale, type Locale } from '../../../common/locales';
import { MAIL_STRINGS, interpolate, type MailStringKey, type MailStrings } from './strings';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

export interface VerificationMailInput {
  /** Interface language; anything but the ten known codes falls back to en. */
  lang: string;
  appName: string;
  /** The 6-digit code the user types on the site (valid 24 hours). */
  code: string;
  /** Absolute http(s) link that verifies the address in one click. */
  link: string;
}

export interface ResetMailInput {
  lang: string;
  appName: string;
  /** Absolute http(s) link to the "choose a new password" page (valid 30 minutes). */
  link: string;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

export function resolveMailLocale(lang: string): Locale {
  return isLocale(lang) ? lang : 'en';
}

export function renderVerificationMail({ lang, appName, code, link }: VerificationMailInput): RenderedMail {
  assertHttpLink(link);
  const { locale, t } = mailLocale(lang, { app: appName, code });
  return composeMail(locale, appName, t('verifySubject'), t('footer'), [
    heading(t('verifyHeading')),
    paragraph(t('verifyCodeIntro')),
    codeBlock(code),
    paragraph(t('verifyLinkIntro')),
    button(link, t('verifyButton')),
    fallbackLink(t('linkFallback'), link),
    paragraph(t('verifyExpiry'), MUTED),
    paragraph(t('verifyIgnore'), MUTED),
  ]);
}

export function renderResetMail({ lang, appName, link }: ResetMailInput): RenderedMail {
  assertHttpLink(link);
  const { locale, t } = mailLocale(lang, { app: appName });
  return composeMail(locale, appName, t('resetSubject'), t('footer'), [
    heading(t('resetHeading')),
    paragraph(t('resetIntro')),
    button(link, t('resetButton')),
    fallbackLink(t('linkFallback'), link),
    paragraph(t('resetExpiry'), MUTED),
    paragraph(t('resetIgnore'), MUTED),
  ]);
}

export interface AccountExistsMailInput {
  lang: string;
  appName: string;
  /** Absolute http(s) link to the login page. */
  loginLink: string;
  /** Absolute http(s) link to the forgot-password page. */
  resetLink: string;
}

/** A sign-up pending confirmation was tried again: the mailbox's owner chooses the password. */
export function renderChoosePasswordMail({ lang, appName, link }: ResetMailInput): RenderedMail {
  assertHttpLink(link);
  const { locale, t } = mailLocale(lang, { app: appName });
  return composeMail(locale, appName, t('chooseSubject'), t('footer'), [
    heading(t('chooseHeading')),
    paragraph(t('chooseIntro')),
    button(link, t('chooseButton')),
    fallbackLink(t('linkFallback'), link),
    paragraph(t('resetExpiry'), MUTED),
    paragraph(t('chooseIgnore'), MUTED),
  ]);
}

/** Someone signed up with an address that has an account: its owner is told, nothing changes. */
export function renderAccountExistsMail({
  lang,
  appName,
  loginLink,
  resetLink,
}: AccountExistsMailInput): RenderedMail {
  assertHttpLink(loginLink);
  assertHttpLink(resetLink);
  const { locale, t } = mailLocale(lang, { app: appName });
  return composeMail(locale, appName, t('existsSubject'), t('footer'), [
    heading(t('existsHeading')),
    paragraph(t('existsIntro')),
    button(loginLink, t('existsButton')),
    fallbackLink(t('existsReset'), resetLink),
    paragraph(t('existsIgnore'), MUTED),
  ]);
}

// ---------------------------------------------------------------------------

/** The recipient's locale (en when unknown) and its strings with `vars` filled in. */
function mailLocale(lang: string, vars: Record<string, string>) {
  const locale = resolveMailLocale(lang);
  const strings: MailStrings = MAIL_STRINGS[locale];
  return { locale, t: (key: MailStringKey): string => interpolate(strings[key], vars) };
}

/**
 * One block of a mail: its row of the HTML card and its paragraph of the text part (null: HTML
 * only). `link`: a link the text part shows only once.
 */
interface Block {
  html: string;
  text: string | null;
  link?: string;
}

/** The mail from its blocks: the same content as HTML and as plain text, with the footer. */
function composeMail(
  locale: Locale,
  appName: string,
  subject: string,
  footer: string,
  blocks: Block[],
): RenderedMail {
  const paragraphs: string[] = [];
  for (const block of blocks) {
    if (block.text === null) continue;
    if (block.link && paragraphs.some((p) => p.includes(block.link!))) continue;
    paragraphs.push(block.text);
  }
  const text = [...paragraphs, `-- \n${footer}\n`].join('\n\n');
  const html = layout(
    locale,
    subject,
    appName,
    footer,
    blocks.map((b) => b.html),
  );
  return { subject, text, html };
}

function assertHttpLink(link: string): void {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new TypeError(`mail link must be an absolute URL, got ${JSON.stringify(link)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`mail link must be http(s), got ${JSON.stringify(link)}`);
  }
}

const FONT =
  "-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,'Helvetica Neue',Arial,'Noto Sans',sans-serif";
const MONO = "'SFMono-Regular',Menlo,Consolas,'Liberation Mono','Courier New',monospace";
const TEXT = '#111827';
const MUTED = '#6b7280';
const BLUE = '#2563eb';

// Every block below is one <tr> of the card table; arguments are plain text and
// get escaped here.
function heading(value: string): Block {
  return block(
    value,
    row(
      `<h1 style="margin:0;font-family:${FONT};font-size:22px;line-height:30px;font-weight:700;color:${TEXT};">${escapeHtml(value)}</h1>`,
      '0 32px 16px',
    ),
  );
}

function paragraph(value: string, color = TEXT): Block {
  return block(
    value,
    row(
      `<p style="margin:0;font-family:${FONT};font-size:16px;line-height:24px;color:${color};">${escapeHtml(value)}</p>`,
      '0 32px 16px',
    ),
  );
}

function codeBlock(code: string): Block {
  return block(
    `    ${code}`,
    row(
      `<div style="display:inline-block;padding:12px 20px;background-color:#f3f4f6;border:1px solid #e5e7eb;border-radius:8px;font-family:${MONO};font-size:32px;line-height:40px;font-weight:700;letter-spacing:8px;color:${TEXT};">${escapeHtml(code)}</div>`,
      '8px 32px 24px',
      'center',
    ),
  );
}

/** In the text part, the link alone. */
function button(link: string, label: string): Block {
  const href = escapeHtml(link);
  return block(
    link,
    row(
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="border-collapse:separate;">` +
        `<tr><td align="center" bgcolor="${BLUE}" style="border-radius:6px;background-color:${BLUE};">` +
        `<a href="${href}" target="_blank" rel="noopener" style="display:inline-block;padding:12px 28px;font-family:${FONT};font-size:16px;line-height:24px;font-weight:700;color:#ffffff;text-decoration:none;border-radius:6px;background-color:${BLUE};">${escapeHtml(label)}</a>` +
        `</td></tr></table>`,
      '8px 32px 24px',
      'center',
    ),
  );
}

/** The link written out; in the text part only when no block before showed it. */
function fallbackLink(intro: string, link: string): Block {
  const href = escapeHtml(link);
  const html = row(
    `<p style="margin:0;font-family:${FONT};font-size:13px;line-height:20px;color:${MUTED};">${escapeHtml(intro)}<br>` +
      `<a href="${href}" target="_blank" rel="noopener" style="color:${BLUE};text-decoration:underline;word-break:break-all;">${href}</a></p>`,
    '0 32px 16px',
  );
  return { html, text: `${intro}\n${link}`, link };
}

const block = (text: string, html: string): Block => ({ html, text });

function row(content: string, padding: string, align: 'left' | 'center' = 'left'): string {
  return `<tr><td align="${align}" style="padding:${padding};">${content}</td></tr>`;
}

function layout(locale: Locale, title: string, appName: string, footer: string, rows: string[]): string {
  const tag = LOCALE_TAGS[locale];
  return `<!DOCTYPE html>
<html lang="${tag}" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${escapeHtml(title)}</title>
</head>
<body style="margin:0;padding:0;width:100%;background-color:#f3f4f6;-webkit-text-size-adjust:100%;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;background-color:#f3f4f6;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:560px;background-color:#ffffff;border:1px solid #e5e7eb;border-radius:8px;">
<tr><td style="padding:28px 32px 12px;font-family:${FONT};font-size:15px;line-height:20px;font-weight:700;color:${BLUE};">${escapeHtml(appName)}</td></tr>
${rows.join('\n')}
<tr><td style="padding:0 0 16px;font-size:0;line-height:0;">&nbsp;</td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="width:100%;max-width:560px;">
<tr><td align="center" style="padding:16px 32px;font-family:${FONT};font-size:12px;line-height:18px;color:#9ca3af;">${escapeHtml(footer)}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
}

export interface NoticeMailInput {
  lang: string;
  appName: string;
  subject: string;
  heading: string;
  paragraphs: string[];
  /** An absolute http(s) link shown as a button, with its label. */
  button?: { link: string; label: string } | null;
  /** Smaller print after the button (validity, "ignore if …"), with the link written out first. */
  footnotes?: string[];
}

/**
 * A plain notice in the common layout, for modules that keep their own texts (the webhooks'
 * "endpoint turned off" mail): the same look and footer as the account mails.
 */
export function renderNoticeMail(input: NoticeMailInput): RenderedMail {
  const locale = resolveMailLocale(input.lang);
  const footer = interpolate(MAIL_STRINGS[locale].footer, { app: input.appName });
  if (input.button) assertHttpLink(input.button.link);
  return composeMail(locale, input.appName, input.subject, footer, [
    heading(input.heading),
    ...input.paragraphs.map((p) => paragraph(p)),
    ...(input.button ? [button(input.button.link, input.button.label)] : []),
    ...(input.button && input.footnotes
      ? [fallbackLink(MAIL_STRINGS[locale].linkFallback, input.button.link)]
      : []),
    ...(input.footnotes ?? []).map((p) => paragraph(p, MUTED)),
  ]);
}
