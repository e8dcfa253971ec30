import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
export const GOOGLEBOT_UA = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

export function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

export function newContext(
  browser: Browser,
  opts: {
    locale?: string;
    userAgent?: string;
    acceptLanguage?: string;
    viewport?: { width: number; height: number };
  } = {},
): Promise<BrowserContext> {
  return browser.newContext({
    locale: opts.locale ?? 'en-US',
    userAgent: opts.userAgent ?? DESKTOP_UA,
    extraHTTPHeaders: opts.acceptLanguage ? { 'Accept-Language': opts.acceptLanguage } : undefined,
    viewport: opts.viewport ?? { width: 1280, height: 800 },
  });
}

/** A phone's screen (the width every page must fit). */
export const PHONE = { width: 375, height: 740 };

/** Whether the page is wider than its screen (it scrolls sideways). */
export const overflows = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** Where the page's player stands, in seconds (-1: no player). */
export const mediaTime = (page: Page) =>
  page.evaluate(() => (document.querySelector('video, audio') as HTMLMediaElement | null)?.currentTime ?? -1);
