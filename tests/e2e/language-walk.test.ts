import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../../common/locales';
import { PAGES, type PageDef } from '../../common/pages';
import { launch, newContext } from './browser';
import { watchConsole } from './console';
import { englishWordsIn } from './english-words';
import { apiSignup } from './session';

// Every page of common/pages.ts in every other language, as a visitor sees it once the page has
// loaded its data: no text left in English, no console error. The user's own content is written
// in Latin placeholder text so that only the interface can trip the check.
const base = inject('baseUrl');
const dataDir = inject('dataDir');
let browser: Browser;
let owner: Record<string, string>;
let newcomer: Record<string, string>;
const urls = new Map<string, string>();

const SRT = [
  '1\n00:00:01,000 --> 00:00:03,000\nLorem ipsum dolor sit amet',
  '2\n00:00:04,000 --> 00:00:06,500\nConsectetur adipiscing elit',
].join('\n\n');

const flatten = (pages: PageDef[], parent = ''): PageDef[] =>
  pages.flatMap((p) => {
    const path = [parent, p.path].filter(Boolean).join('/');
    return [{ ...p, path }, ...flatten(p.children ?? [], path)];
  });

async function api<T>(headers: Record<string, string>, method: string, path: string, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { code: number; data: T };
  expect(json.code, `${path}: ${JSON.stringify(json)}`).toBe(200);
  return json.data;
}

/** A fresh browser profile (the language a visit remembers in a cookie would redirect the next). */
async function visitor(headers?: Record<string, string>) {
  const ctx = await newContext(browser);
  if (headers) {
    const [name, value] = headers.cookie!.split('=') as [string, string];
    await ctx.addCookies([{ name, value, url: base, httpOnly: true }]);
  }
  return ctx;
}

beforeAll(async () => {
  browser = await launch();
  const stamp = Date.now();
  const mine = await apiSignup(base, dataDir, `walk-${stamp}@example.com`);
  newcomer = await apiSignup(base, dataDir, `walk-new-${stamp}@example.com`);
  owner = mine;
  const form = new FormData();
  form.set('file', new File([SRT], 'lorem.srt', { type: 'application/x-subrip' }));
  form.set('name', 'Lorem ipsum 2026');
  const imported = await fetch(`${base}/self-api/v1/transcripts/import`, {
    method: 'POST',
    headers: mine,
    body: form,
  });
  const transcript = ((await imported.json()) as { data: { id: string } }).data;
  const folder = await api<{ id: string }>(mine, 'POST', '/self-api/v1/folders', { name: 'Archivum' });
  const share = await api<{ url: string }>(mine, 'POST', `/self-api/v1/transcripts/${transcript.id}/shares`, {
    expires_at: null,
  });
  await api(mine, 'POST', '/common-api/v1/distribution', { accept_terms: true });

  // One concrete address per page; a page added to common/pages.ts must be added here.
  const concrete: Record<string, string> = {
    'register-verification': 'register/verification?email=walk%40example.com',
    'forgetPassword-sendSuccess': 'forgetPassword/sent?email=walk%40example.com',
    resetPassword: 'resetPassword?token=0123456789abcdef',
    'dashboard-folder-id': `dashboard/folder/${folder.id}`,
    'transcript-id': `transcript/${transcript.id}`,
    'transcript-share-id-shareid': new URL(share.url, base).pathname.slice(1),
    'tools-slug': 'tools/video-to-text',
    'not-found': 'zz-404',
  };
  for (const p of flatten(PAGES)) {
    const path = concrete[p.name] ?? p.path;
    expect(path, `an address for ${p.name}`).not.toMatch(/[:*]/);
    urls.set(p.name, path);
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

/** Every text a visitor reads or hears: text nodes, placeholders, titles, labels, alt texts. */
function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const pageLang = document.documentElement.lang.split('-')[0];
    // Text marked as another language (a language's own name in the switcher) or as not to be
    // translated is what it should be.
    const foreign = (el: Element) => {
      const marked = el.closest('[lang],[translate=no]');
      return (
        !!marked &&
        marked !== document.documentElement &&
        (marked.getAttribute('translate') === 'no' || marked.getAttribute('lang')!.split('-')[0] !== pageLang)
      );
    };
    const out = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      const text = n.textContent?.trim();
      if (!el || !text || el.closest('script,style,noscript,template') || foreign(el)) continue;
      out.push(text);
    }
    for (const el of document.querySelectorAll('[placeholder],[title],[aria-label],img[alt]')) {
      if (foreign(el)) continue;
      for (const a of ['placeholder', 'title', 'aria-label', 'alt']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    return out;
  });
}

const languages = LOCALES.filter((l): l is Exclude<Locale, 'en'> => l !== DEFAULT_LOCALE);
// Half the languages are walked on a phone, where long words and CJK text are tightest.
const PHONE = new Set<Locale>(['de', 'ja', 'ko', 'zh']);

describe('every page in every language', () => {
  it.each(languages)(
    '%s: no English left, no console error, nothing wider than the screen',
    async (lang) => {
      const leftovers: string[] = [];
      const errors: string[] = [];
      // Three visitors (a guest, the owner of the content and affiliate, a user who is not one yet),
      // each walking its pages in one tab, side by side.
      const groups = new Map<Record<string, string> | undefined, PageDef[]>();
      for (const p of flatten(PAGES)) {
        const who = p.name === 'affiliate-apply' ? newcomer : p.auth ? owner : undefined;
        groups.set(who, [...(groups.get(who) ?? []), p]);
      }
      await Promise.all(
        [...groups].map(async ([headers, pages]) => {
          const ctx = await visitor(headers);
          const page = await ctx.newPage();
          if (PHONE.has(lang)) await page.setViewportSize({ width: 375, height: 812 });
          const problems = watchConsole(page, { documentStatusOk: true });
          for (const p of pages) {
            const url = `/${lang}/${urls.get(p.name)}`;
            problems.length = 0;
            const res = await page.goto(`${base}${url}`, { waitUntil: 'networkidle' });
            if (p.name !== 'not-found' && (res?.status() ?? 0) >= 400)
              errors.push(`${url}: ${res?.status()}`);
            const landed = new URL(page.url()).pathname;
            if (p.name !== 'affiliate' && landed !== new URL(url, base).pathname)
              errors.push(`${url}: went to ${landed}`);
            const sideways = await page.evaluate(
              () => document.scrollingElement!.scrollWidth - document.scrollingElement!.clientWidth,
            );
            if (sideways > 0) errors.push(`${url}: ${sideways} px wider than the screen`);
            for (const text of await pageTexts(page)) {
              const words = englishWordsIn(text, lang);
              if (words.length) leftovers.push(`${url}: "${text.slice(0, 90)}" [${words.join(' ')}]`);
            }
            errors.push(...problems.map((m) => `${url}: ${m}`));
          }
          await ctx.close();
        }),
      );
      expect(errors).toEqual([]);
      expect([...new Set(leftovers)]).toEqual([]);
    },
    240_000,
  );
});
