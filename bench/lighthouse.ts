// `npm run bench:lighthouse [-- --desktop] [paths…]`: Lighthouse scores (performance, seo,
// accessibility, best-practices, 0-100) of public pages on the production build, plus the titles
// of the failing audits (score < 0.9) of every category under 95 (not a test; always exits 0).
// Default paths: / /tools/video-to-text /de/tools/video-to-text. Default form factor: Lighthouse's
// mobile defaults (moto g emulation, slow 4G simulated); --desktop uses Lighthouse's desktop preset.
// CHROME_PATH (default /usr/bin/chromium).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Result } from 'lighthouse';
import { LOCALE_TAGS, splitLocalePath } from '../common/locales';
import { startServer, type RunningServer } from '../tests/e2e/server';

const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CATEGORIES = ['performance', 'seo', 'accessibility', 'best-practices'];
const args = process.argv.slice(2);
const desktop = args.includes('--desktop');
const paths = args.filter((a) => !a.startsWith('--'));
if (!paths.length) paths.push('/', '/tools/video-to-text', '/de/tools/video-to-text');

// Like scripts/start.mjs, but only when the build is missing: a stale build/ is measured as is.
if (!existsSync('build/server/index.js')) {
  console.log('Building the web app…');
  const r = spawnSync('npx', ['react-router', 'build'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
} else console.log('Using the existing build/ (run `npm run build` first to measure recent changes).');

console.log(
  desktop
    ? 'Form factor: desktop (Lighthouse desktop preset: 1350x940 emulation, desktop throttling)'
    : 'Form factor: mobile (Lighthouse defaults: moto g emulation, slow 4G simulated throttling)',
);

let server: RunningServer | undefined;
// One orderly stop (Chromium, then the server and its data dir) shared by the normal end, errors and
// Ctrl-C; on Ctrl-C we do not wait for Lighthouse, which can hang for a while once Chromium is gone.
let stopping: Promise<void> | undefined;
const stop = () => (stopping ??= (async () => (chromeLauncher.killAll(), await server?.stop()))());
let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  void stop().finally(() => process.exit(130));
});
// Last resort for a crash outside any try (chrome-launcher can emit unhandled errors).
process.on('exit', () => {
  chromeLauncher.killAll();
  if (server?.proc.exitCode === null) server.proc.kill('SIGTERM');
});

const rows: { path: string; lhr?: Result; error?: string }[] = [];
try {
  if (!existsSync(CHROME)) throw new Error(`no Chromium at ${CHROME} (set CHROME_PATH)`);
  server = await startServer();
  // Measure a warm server, as visitors meet it: the first render of each route compiles its code.
  for (const path of paths) {
    for (let i = 0; i < 3; i++) {
      await fetch(server.url + path, {
        headers: { 'accept-language': LOCALE_TAGS[splitLocalePath(path).lang] },
      });
    }
  }
  for (const path of paths) {
    if (interrupted) break;
    // A fresh Chromium (and profile) per path: Lighthouse keeps cookies between runs, and the
    // locale cookie one page sets would redirect the next page of another language.
    const chrome = await chromeLauncher.launch({
      chromePath: CHROME,
      handleSIGINT: false, // ours above also stops the server
      chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    // Lighthouse's emulated user agent is a plain Chrome one (isbot: false), so the app treats it as
    // a visitor; an Accept-Language matching the path's language keeps the locale redirect (first
    // visit, no cookie) from sending it elsewhere. Never emulatedUserAgent: false: HeadlessChrome is a bot.
    const acceptLanguage = LOCALE_TAGS[splitLocalePath(path).lang];
    try {
      const result = await lighthouse(
        server.url + path,
        {
          port: chrome.port,
          logLevel: 'error',
          onlyCategories: CATEGORIES,
          extraHeaders: { 'Accept-Language': acceptLanguage },
          // Audit error pages too (e.g. a 404 while a page is being built) instead of bailing out.
          ignoreStatusCode: true,
        },
        desktop ? desktopConfig : undefined,
      );
      rows.push({ path, lhr: result?.lhr, error: result?.lhr.runtimeError?.message });
    } catch (err) {
      rows.push({ path, error: (err as Error).message });
    } finally {
      chrome.kill();
    }
  }
} catch (err) {
  console.error('lighthouse bench failed:', err);
} finally {
  await stop();
}

const score = (lhr: Result | undefined, id: string) => {
  const s = lhr?.categories[id]?.score;
  return s == null ? '-' : String(Math.round(s * 100));
};
const width = Math.max(4, ...rows.map((r) => r.path.length));
console.log(`\n${'path'.padEnd(width)}  ${CATEGORIES.map((c) => c.padStart(16)).join('')}`);
for (const { path, lhr } of rows) {
  console.log(`${path.padEnd(width)}  ${CATEGORIES.map((c) => score(lhr, c).padStart(16)).join('')}`);
}

for (const { path, lhr, error } of rows) {
  const notes: string[] = [];
  if (error) notes.push(`  error: ${error}`);
  if (lhr && lhr.finalDisplayedUrl !== lhr.requestedUrl) notes.push(`  ended at ${lhr.finalDisplayedUrl}`);
  for (const w of lhr?.runWarnings ?? []) notes.push(`  warning: ${w}`);
  for (const id of CATEGORIES) {
    const category = lhr?.categories[id];
    if (!category || category.score == null || category.score >= 0.95) continue;
    notes.push(`  ${category.title} ${Math.round(category.score * 100)}:`);
    for (const ref of category.auditRefs) {
      const audit = lhr.audits[ref.id];
      // Binary/numeric audits only: informative, manual and not-applicable ones have no score.
      if (!audit || audit.score == null || audit.score >= 0.9) continue;
      notes.push(`    - ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
    }
  }
  if (notes.length) console.log(`\n${path}\n${notes.join('\n')}`);
}
process.exit(interrupted ? 130 : 0);
