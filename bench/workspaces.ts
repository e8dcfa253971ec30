// `npm run bench:workspaces` (issue #26; not a test, prints figures): what team workspaces cost a
// request. A member lists a team workspace of 10,000 transcripts and, on the same database, their
// personal workspace of 10,000 (ratio side by side, target ≤ 1.1×); then the dashboard's API calls
// for each; then the permission check alone: the actor of a request (membership lookup) and an
// object by id through the membership against a bare lookup by id.
// BENCH_TRANSCRIPTS (default 10000), BENCH_RUNS (default 50).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { createApp } from '../server/app';
import { openDatabase } from '../server/db/client';
import { transcripts, workspaceMembers, workspaces } from '../server/db/schema';
import { buildServiceDeps } from '../server/deps';
import { loadEnv } from '../server/env';
import { createLogger } from '../server/logger';
import { sessionActor, signedInUser } from '../server/test/users';
import { segmentsToPlainText } from '../common/segments';
import { resolveActor } from '../server/modules/workspaces/actor';
import { ownTranscript } from '../server/modules/transcription/ownership';

const COUNT = Number(process.env.BENCH_TRANSCRIPTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);

const work = mkdtempSync(path.join(os.tmpdir(), 'cs-bench-ws-'));
const env = loadEnv({ NODE_ENV: 'production', LOG_LEVEL: 'silent', DATA_DIR: work });
const logger = createLogger('silent');
const database = await openDatabase({ pgliteDir: path.join(work, 'pglite') });
const db = database.db;
const services = await buildServiceDeps(env, db, logger, { exclusiveDb: true });
const app = createApp({ env, logger, db, services, build: { id: 'bench', timestamp: 0 } });

// The member, their personal workspace, and a team workspace owned by someone else.
const owner = await signedInUser(db, { rankName: 'UNLIMITED' });
const member = await signedInUser(db, { rankName: 'UNLIMITED' });
const personal = (await sessionActor(db, member.user)).workspace.id;
const [team] = await db.insert(workspaces).values({ kind: 'team', name: 'Bench team' }).returning();
await db.insert(workspaceMembers).values([
  { workspaceId: team!.id, userId: owner.user.id, role: 'owner' },
  { workspaceId: team!.id, userId: member.user.id, role: 'editor' },
]);

async function seed(workspaceId: string, userId: string) {
  for (let done = 0; done < COUNT; done += 500) {
    const rows = Array.from({ length: Math.min(500, COUNT - done) }, (_, i) => {
      const segments = Array.from({ length: 20 }, (_, k) => ({
        start: k * 3,
        end: k * 3 + 2.5,
        text: `segment ${k} of recording ${done + i}`,
      }));
      return {
        workspaceId,
        userId,
        name: `Recording ${done + i}`,
        source: 'import' as const,
        status: 'done' as const,
        progress: 100,
        durationSec: 60,
        segments,
        plainText: segmentsToPlainText(segments),
        createdAt: new Date(Date.now() - (done + i) * 60_000),
      };
    });
    await db.insert(transcripts).values(rows);
  }
}
const started = performance.now();
await seed(personal, member.user.id);
await seed(team!.id, owner.user.id);
console.log(
  `seeded ${COUNT} transcripts in the member's personal workspace and ${COUNT} in a team workspace in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

const headersFor = (workspaceId: string) => ({ ...member.headers, 'x-workspace': workspaceId });

function percentiles(times: number[]) {
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: p(0.5), p95: p(0.95) };
}

async function timeRequests(paths: string[], headers: Record<string, string>) {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 5; i++) {
    const t0 = performance.now();
    for (const p of paths) {
      const res = await app.request(p, { headers });
      if (res.status !== 200) throw new Error(`${p}: ${res.status}`);
      await res.arrayBuffer();
    }
    if (i >= 5) times.push(performance.now() - t0);
  }
  return percentiles(times);
}

async function compare(label: string, paths: string[]) {
  const own = await timeRequests(paths, headersFor(personal));
  const shared = await timeRequests(paths, headersFor(team!.id));
  console.log(
    `${label.padEnd(30)} personal p50 ${own.p50.toFixed(2)} ms p95 ${own.p95.toFixed(2)} ms | team p50 ${shared.p50.toFixed(2)} ms p95 ${shared.p95.toFixed(2)} ms | ratio p50 ${(shared.p50 / own.p50).toFixed(2)}×`,
  );
}

await compare('list API (first page of 20)', ['/self-api/v1/transcripts?page_size=20']);
await compare('list API (page 200)', ['/self-api/v1/transcripts?page_size=20&page=200']);
await compare('dashboard API calls', [
  '/self-api/v1/workspaces/current',
  '/self-api/v1/folders',
  '/self-api/v1/transcripts?page_size=20',
]);

// BENCH_EXPLAIN=1: the plans of the deep page's query in each workspace, to see where time goes.
if (process.env.BENCH_EXPLAIN) {
  for (const [label, id] of [
    ['personal', personal],
    ['team', team!.id],
  ] as const) {
    const plan = (await db.execute(
      sql`explain (analyze, buffers) select id, name, created_at from transcripts where workspace_id = ${id}
       order by created_at desc, id desc limit 20 offset 3980`,
    )) as unknown as { rows: { 'QUERY PLAN': string }[] };
    console.log(`-- ${label}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  }
}

// The permission check alone, per request.
async function perCall(label: string, fn: () => Promise<unknown>, n = 2000) {
  for (let i = 0; i < 100; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  const us = ((performance.now() - t0) / n) * 1000;
  console.log(`${label.padEnd(52)} ${us.toFixed(0)} µs per call`);
  return us;
}
const [oneTeam] = await db
  .select({ id: transcripts.id })
  .from(transcripts)
  .where(eq(transcripts.workspaceId, team!.id))
  .limit(1);
const teamActor = await sessionActor(db, member.user, team!.id);
await perCall('actor of a request, personal workspace', () => resolveActor(db, { user: member.user }));
await perCall('actor of a request, team workspace (X-Workspace)', () =>
  resolveActor(db, { user: member.user }, { header: team!.id }),
);
const bare = await perCall('transcript by id, bare lookup', () =>
  db.select().from(transcripts).where(eq(transcripts.id, oneTeam!.id)),
);
const checked = await perCall('transcript by id, membership + role + can()', () =>
  ownTranscript({ db }, teamActor, oneTeam!.id, 'transcript.edit'),
);
console.log(
  `permission check on a lookup by id: +${(checked - bare).toFixed(0)} µs (${(checked / bare).toFixed(2)}×)`,
);

await services.close();
await database.close();
rmSync(work, { recursive: true, force: true });
process.exit(0);
