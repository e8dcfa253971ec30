import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../../db/client';
import { jobs, renderJobs, transcripts } from '../../db/schema';
import { loadEnv } from '../../env';
import { createLogger } from '../../logger';
import { newTranscript } from '../../test/factories';
import { signedInUser } from '../../test/users';
import { createDbQueue } from '../jobs/db-queue';
import { createLocalEvents } from '../jobs/events';
import { createLocalStorage } from '../storage/local-storage';
import { runCheck } from '../../../scripts/admin-ops';
import { checkConsistency, findingsTable, fixFindings, type ConsistencyDeps } from './consistency';

let database: Database;
let dataDir: string;
let deps: ConsistencyDeps;
beforeAll(async () => {
  database = await openDatabase({});
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'clipscribe-check-'));
  deps = {
    db: database.db,
    storage: createLocalStorage(dataDir),
    queue: createDbQueue({
      db: database.db,
      events: createLocalEvents(),
      logger: createLogger('silent'),
      exclusive: false,
    }),
    uploadsDir: path.join(dataDir, 'uploads'),
    logger: createLogger('silent'),
    now: () => new Date(),
  };
});
afterAll(async () => {
  await database?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
function file(rel: string, age: Date | null = hoursAgo(1)) {
  const full = path.join(dataDir, rel);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, randomBytes(64));
  if (age) utimesSync(full, age, age);
  return full;
}

describe('admin check', () => {
  it('finds each kind of inconsistency, fixes the safe ones and leaves the rest for a person', async () => {
    const { user } = await signedInUser(database.db);
    const u = user.id;
    const kept = await newTranscript(database.db, u, { status: 'done', mediaKey: `media/${u}/kept` });
    file(`media/${u}/kept`);
    const lostMedia = await newTranscript(database.db, u, { status: 'done', mediaKey: `media/${u}/gone` });
    file(`media/${u}/orphan`);
    file(`media/${u}/just-stored`, null); // a transcript being created: not judged yet
    const renderId = randomUUID();
    file(`media/${u}/renders/${renderId}.mp4`);
    await database.db.insert(renderJobs).values({
      workspaceId: kept.workspaceId,
      userId: u,
      transcriptId: kept.id,
      options: {} as never,
      status: 'done',
      durationSec: 1,
      maxResolution: 720,
      outputKey: `media/${u}/renders/${randomUUID()}.mp4`,
    });
    const uploadId = randomBytes(16).toString('hex');
    file(`uploads/${uploadId}`, hoursAgo(30));
    file(`uploads/${uploadId}.json`, hoursAgo(30));
    file(`uploads/${randomBytes(16).toString('hex')}`, hoursAgo(2)); // an upload of today
    const [stuck] = await database.db
      .insert(jobs)
      .values({
        name: 'send-mail',
        status: 'running',
        lockedBy: '999-dead',
        lockedUntil: new Date(Date.now() - 5 * 60_000),
      })
      .returning();
    const orphanQueued = await newTranscript(database.db, u, {
      mediaKey: `media/${u}/queued`,
      updatedAt: hoursAgo(1),
    });
    file(`media/${u}/queued`);
    // Queued a moment ago (its job may still be on its way): not judged.
    const fresh = await newTranscript(database.db, u, { mediaKey: `media/${u}/fresh` });
    file(`media/${u}/fresh`);

    const findings = await checkConsistency(deps);
    const seen = findings.map((f) => [f.kind, f.subject]);
    expect(seen).toEqual(
      expect.arrayContaining([
        ['transcript_without_media', lostMedia.id],
        ['render_without_file', expect.any(String)],
        ['file_without_row', `media/${u}/orphan`],
        ['render_file_without_row', `media/${u}/renders/${renderId}.mp4`],
        ['upload_abandoned', `uploads/${uploadId}`],
        ['job_past_lease', stuck!.id],
        ['transcript_without_job', orphanQueued.id],
      ]),
    );
    expect(findings).toHaveLength(7);
    expect(seen.map(([, s]) => s)).not.toContain(fresh.id);
    expect(findingsTable(findings)).toContain('7 problem(s)');

    const quarantineDir = path.join(dataDir, 'quarantine', 'now');
    const fixed = await fixFindings({ ...deps, quarantineDir }, findings);
    expect(fixed.map((f) => f.kind).sort()).toEqual([
      'file_without_row',
      'job_past_lease',
      'render_file_without_row',
      'transcript_without_job',
      'upload_abandoned',
    ]);
    // Moved, not deleted.
    expect(existsSync(path.join(quarantineDir, `media/${u}/orphan`))).toBe(true);
    expect(existsSync(path.join(dataDir, `media/${u}/orphan`))).toBe(false);
    expect(existsSync(path.join(quarantineDir, `uploads/${uploadId}`))).toBe(true);
    expect(existsSync(path.join(dataDir, `uploads/${uploadId}.json`))).toBe(false);
    const [released] = await database.db.select().from(jobs).where(eq(jobs.id, stuck!.id));
    expect(released).toMatchObject({ status: 'queued', lockedBy: null });
    expect(await deps.queue.liveKeys('transcribe')).toContain(orphanQueued.id);

    // What is left needs a person: a transcript's media and a render's output are gone.
    const again = await checkConsistency(deps);
    expect(again.map((f) => f.kind).sort()).toEqual(['render_without_file', 'transcript_without_media']);
  });

  it('exits 1 while problems remain and 0 once the data is consistent', async () => {
    const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: dataDir });
    const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await runCheck(env, database, true)).toBe(1);
      expect(out.mock.calls.flat().join('\n')).toContain('transcript_without_media');
      await database.db.delete(renderJobs);
      await database.db.delete(transcripts).where(like(transcripts.mediaKey, '%/gone'));
      // The jobs the fix queued are waiting: the data is consistent again.
      expect(await runCheck(env, database, false)).toBe(0);
      expect(out.mock.calls.flat().join('\n')).toContain('No problems found.');
    } finally {
      out.mockRestore();
    }
  });
});
