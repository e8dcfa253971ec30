// `npm run bench:list`: the dashboard list API with 10,000 transcripts (not a test; prints figures):
// latency of the first page, of a later page and of searches (with their snippets), on embedded
// PGlite.
// BENCH_TRANSCRIPTS (default 10000), BENCH_RUNS (default 30).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp } from '../server/app';
import { openDatabase } from '../server/db/client';
import { transcripts } from '../server/db/schema';
import { buildServiceDeps } from '../server/deps';
import { loadEnv } from '../server/env';
import { createLogger } from '../server/logger';
import { sessionActor, signedInUser } from '../server/test/users';
import { segmentsToPlainText } from '../common/segments';
import { searchSnippets } from '../server/modules/transcription/search';

const COUNT = Number(process.env.BENCH_TRANSCRIPTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WORDS = 'market launch budget river planet coffee signal garden meeting design travel music'.split(' ');

const work = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-list-'));
const env = loadEnv({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: work });
const logger = createLogger('silent');
const database = await openDatabase({ pgliteDir: path.join(work, 'pglite') });
const services = await buildServiceDeps(env, database.db, logger, { exclusiveDb: true });
const app = createApp({ env, logger, db: database.db, services, build: { id: 'bench', timestamp: 0 } });
const user = await signedInUser(database.db, { rankName: 'UNLIMITED' });
const workspaceId = (await sessionActor(database.db, user.user)).workspace.id;

let seed = 7;
const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const word = () => WORDS[Math.floor(rand() * WORDS.length)]!;
const started = performance.now();
for (let done = 0; done < COUNT; done += 500) {
  const rows = Array.from({ length: Math.min(500, COUNT - done) }, (_, i) => {
    const segments = Array.from({ length: 40 }, (_, k) => ({
      start: k * 3,
      end: k * 3 + 2.5,
      // One transcript in a hundred mentions the word searched for below, one in a hundred
      // (others) has a Japanese line.
      text:
        (done + i) % 100 === 50 && k === 30
          ? '次の会議では東京タワーの撮影予算について話し合います'
          : [
              ...Array.from({ length: 8 }, word),
              ...((done + i) % 100 === 0 && k === 20 ? ['quarterly'] : []),
            ].join(' '),
    }));
    return {
      userId: user.user.id,
      name: `Recording ${done + i} ${word()}`,
      source: 'import' as const,
      status: 'done' as const,
      progress: 100,
      durationSec: 120,
      segments,
      plainText: segmentsToPlainText(segments),
      createdAt: new Date(Date.now() - (done + i) * 60_000),
    };
  });
  await database.db.insert(transcripts).values(rows);
}
console.log(
  `seeded ${COUNT} transcripts (40 segments each) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

async function measure(label: string, url: string) {
  const times: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await app.request(url, { headers: user.headers });
    const json = (await res.json()) as { data: { total: number } };
    times.push(performance.now() - t0);
    total = json.data.total;
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  console.log(`${label.padEnd(34)} p50 ${p(0.5)} ms  p95 ${p(0.95)} ms  (${total} matches)`);
}

await measure('first page (20, newest)', '/self-api/v1/transcripts?page_size=20');
await measure('page 200 (20, newest)', '/self-api/v1/transcripts?page_size=20&page=200');
await measure('sorted by name', '/self-api/v1/transcripts?page_size=20&sort=name&order=asc');
await measure('full-text search "quarterly"', '/self-api/v1/transcripts?page_size=20&q=quarterly');
await measure('full-text search "coffee signal"', '/self-api/v1/transcripts?page_size=20&q=coffee%20signal');
await measure(
  'search inside Japanese "撮影予算"',
  `/self-api/v1/transcripts?page_size=20&q=${encodeURIComponent('撮影予算')}`,
);
await measure('search, 100 a page "coffee"', '/self-api/v1/transcripts?page_size=100&q=coffee');

// What the snippets add to a search's answer: the same page of results with and without them.
for (const q of ['quarterly', 'coffee']) {
  const res = await app.request(`/self-api/v1/transcripts?page_size=20&q=${q}`, { headers: user.headers });
  const ids = ((await res.json()) as { data: { items: { id: string }[] } }).data.items.map((i) => i.id);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await searchSnippets(database.db, workspaceId, ids, q);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${`snippets alone for 20 "${q}"`.padEnd(34)} p50 ${times[Math.floor(RUNS / 2)]!.toFixed(1)} ms  p95 ${times[Math.min(RUNS - 1, Math.floor(0.95 * RUNS))]!.toFixed(1)} ms`,
  );
}

await services.close();
await database.close();
rmSync(work, { recursive: true, force: true });
process.exit(0);
