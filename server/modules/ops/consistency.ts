// `npm run admin -- check`: does what the database says match what is stored and queued? The
// operator's question after a crash, a restore or a hand edit; the fault matrix asks it after
// every fault (bench/faults.ts). Findings are read-only; `fixFindings` repairs only what is safe
// to repair without a person deciding (files nobody names go to a quarantine folder, never deleted).
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { jobs, renderJobs, transcripts, usageRecords } from '../../db/schema';
import type { Logger } from '../../logger';
import type { JobQueue } from '../jobs/queue';
import type { Storage } from '../storage/storage';
import { RECOVER_AFTER_MS, recoverTranscriptJobs } from '../transcription/recover-jobs';
import { ABANDONED_AFTER_MS } from '../uploads/uploads';

export const FINDING_KINDS = [
  'transcript_without_media',
  'render_without_file',
  'file_without_row',
  'render_file_without_row',
  'upload_abandoned',
  'job_past_lease',
  'transcript_without_job',
  'usage_charged_twice',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

/** What `--fix` does to a finding; null: a person must decide (restore the file, refund …). */
export type FindingFix = 'quarantine' | 'requeue' | 'release' | null;

export interface Finding {
  kind: FindingKind;
  /** A storage key, a file name or a row id. */
  subject: string;
  detail: string;
  fix: FindingFix;
}

export interface ConsistencyDeps {
  db: Db;
  storage: Storage;
  queue: JobQueue;
  /** This machine's tus folder (DATA_DIR/uploads). */
  uploadsDir: string;
  logger: Logger;
  now: () => Date;
}

/**
 * A file younger than this is not judged: creating a transcript stores its media before the row
 * commits, and a render writes its file before its row names it.
 */
export const FILE_GRACE_MS = 10 * 60_000;
/** A lease this far past its end belongs to a process that is gone (leases renew every 20 s). */
const LEASE_GRACE_MS = 30_000;
const RENDER_KEY = /^media\/[^/]+\/renders\/([^/]+)\.mp4$/;
const UPLOAD_ID = /^[a-f0-9]{32}$/;

export async function checkConsistency(deps: ConsistencyDeps): Promise<Finding[]> {
  const now = deps.now().getTime();
  const findings: Finding[] = [];

  // Every stored media file, once (one listing instead of one request per row on S3).
  const stored = new Map<string, { size: number; modified: Date }>();
  for await (const item of deps.storage.list('media/')) stored.set(item.key, item);

  const rows = await deps.db
    .select({ id: transcripts.id, mediaKey: transcripts.mediaKey, status: transcripts.status })
    .from(transcripts);
  const named = new Set<string>();
  for (const row of rows) {
    if (!row.mediaKey) continue;
    named.add(row.mediaKey);
    if (!stored.has(row.mediaKey))
      findings.push({
        kind: 'transcript_without_media',
        subject: row.id,
        detail: `${row.status}; ${row.mediaKey} is missing`,
        fix: null,
      });
  }
  const renders = await deps.db
    .select({ id: renderJobs.id, outputKey: renderJobs.outputKey, status: renderJobs.status })
    .from(renderJobs);
  const renderIds = new Set(renders.map((r) => r.id));
  for (const r of renders) {
    if (!r.outputKey) continue;
    named.add(r.outputKey);
    if (r.status === 'done' && !stored.has(r.outputKey))
      findings.push({
        kind: 'render_without_file',
        subject: r.id,
        detail: `${r.outputKey} is missing`,
        fix: null,
      });
  }
  for (const [key, item] of stored) {
    if (named.has(key) || now - item.modified.getTime() < FILE_GRACE_MS) continue;
    const render = RENDER_KEY.exec(key);
    findings.push({
      kind: render ? 'render_file_without_row' : 'file_without_row',
      subject: key,
      detail: render && renderIds.has(render[1]!) ? 'its render has no output' : `${item.size} bytes`,
      fix: 'quarantine',
    });
  }

  // Uploads never turned into a transcript outlive their day only when the sweep did not run.
  for (const name of await readdir(deps.uploadsDir).catch(() => [] as string[])) {
    const id = name.replace(/\.(json|shared)$/, '');
    if (!UPLOAD_ID.test(id) || name !== id) continue;
    const info = await stat(path.join(deps.uploadsDir, name)).catch(() => null);
    if (info && now - info.mtimeMs > ABANDONED_AFTER_MS + FILE_GRACE_MS)
      findings.push({
        kind: 'upload_abandoned',
        subject: `uploads/${name}`,
        detail: `${info.size} bytes, ${Math.round((now - info.mtimeMs) / 3_600_000)} h old`,
        fix: 'quarantine',
      });
  }
  if (deps.storage.kind === 's3') {
    for await (const item of deps.storage.list('uploads/')) {
      if (item.key.endsWith('.json') || now - item.modified.getTime() <= ABANDONED_AFTER_MS + FILE_GRACE_MS)
        continue;
      findings.push({
        kind: 'upload_abandoned',
        subject: item.key,
        detail: `${item.size} bytes in the bucket`,
        fix: 'quarantine',
      });
    }
  }

  const stale = await deps.db
    .select({ id: jobs.id, name: jobs.name, key: jobs.key, lockedBy: jobs.lockedBy, until: jobs.lockedUntil })
    .from(jobs)
    .where(and(eq(jobs.status, 'running'), lt(jobs.lockedUntil, new Date(now - LEASE_GRACE_MS))));
  for (const j of stale)
    findings.push({
      kind: 'job_past_lease',
      subject: j.id,
      detail: `${j.name} ${j.key ?? ''} held by ${j.lockedBy ?? '?'} until ${j.until?.toISOString()}`.replace(
        /\s+/g,
        ' ',
      ),
      fix: 'release',
    });

  const quiet = await deps.db
    .select({ id: transcripts.id, status: transcripts.status, updatedAt: transcripts.updatedAt })
    .from(transcripts)
    .where(
      and(
        inArray(transcripts.status, ['queued', 'processing']),
        lt(transcripts.updatedAt, new Date(now - RECOVER_AFTER_MS)),
      ),
    );
  if (quiet.length > 0) {
    const [transcribing, downloading] = await Promise.all([
      deps.queue.liveKeys('transcribe'),
      deps.queue.liveKeys('import-link'),
    ]);
    for (const t of quiet) {
      if (transcribing.has(t.id) || downloading.has(t.id)) continue;
      findings.push({
        kind: 'transcript_without_job',
        subject: t.id,
        detail: `${t.status} since ${t.updatedAt.toISOString()}, no job waits or runs`,
        fix: 'requeue',
      });
    }
  }

  // The unique index makes this impossible today; the check guards the promise, not the index.
  const twice = await deps.db
    .select({ transcriptId: usageRecords.transcriptId, n: sql<number>`count(*)::int` })
    .from(usageRecords)
    .groupBy(usageRecords.transcriptId)
    .having(sql`count(*) > 1`);
  for (const u of twice)
    findings.push({
      kind: 'usage_charged_twice',
      subject: u.transcriptId,
      detail: `${u.n} usage records`,
      fix: null,
    });
  return findings;
}

/**
 * Repairs the safe findings: files nobody names move to `<quarantineDir>/<key>` (kept for a person
 * to look at), jobs whose holder is gone go back to the queue, transcripts without a job get one.
 * Returns the findings it repaired.
 */
export async function fixFindings(
  deps: ConsistencyDeps & { quarantineDir: string },
  findings: Finding[],
): Promise<Finding[]> {
  const fixed: Finding[] = [];
  for (const f of findings) {
    if (f.fix !== 'quarantine') continue;
    const dest = path.join(deps.quarantineDir, f.subject);
    await mkdir(path.dirname(dest), { recursive: true });
    if (f.kind === 'upload_abandoned' && deps.storage.kind !== 's3') {
      // This machine's tus folder: the file and its description.
      const src = path.join(deps.uploadsDir, path.basename(f.subject));
      await moveFile(src, dest);
      await rm(`${src}.json`, { force: true });
    } else {
      await deps.storage.withLocalFile(f.subject, (local) => copyFile(local, dest));
      await deps.storage.delete(f.subject);
      if (f.kind === 'upload_abandoned') await deps.storage.delete(`${f.subject}.json`);
    }
    fixed.push(f);
  }
  const release = findings.filter((f) => f.fix === 'release');
  if (release.length > 0) {
    // Only while still past its lease: a job claimed again meanwhile is left alone.
    const cutoff = new Date(deps.now().getTime() - LEASE_GRACE_MS);
    const back = await deps.db
      .update(jobs)
      .set({ status: 'queued', lockedBy: null, lockedUntil: null })
      .where(
        and(
          inArray(
            jobs.id,
            release.map((f) => f.subject),
          ),
          eq(jobs.status, 'running'),
          lt(jobs.lockedUntil, cutoff),
        ),
      )
      .returning({ id: jobs.id });
    const ids = new Set(back.map((j) => j.id));
    fixed.push(...release.filter((f) => ids.has(f.subject)));
  }
  const requeue = findings.filter((f) => f.fix === 'requeue');
  if (requeue.length > 0) {
    await recoverTranscriptJobs(deps);
    const [transcribing, downloading] = await Promise.all([
      deps.queue.liveKeys('transcribe'),
      deps.queue.liveKeys('import-link'),
    ]);
    fixed.push(...requeue.filter((f) => transcribing.has(f.subject) || downloading.has(f.subject)));
  }
  return fixed;
}

async function moveFile(src: string, dest: string) {
  try {
    await rename(src, dest);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(src, dest);
    await rm(src, { force: true });
  }
}

/** The findings as a fixed-width table, one row each, and a line of totals. */
export function findingsTable(findings: Finding[], fixed: Finding[] = []): string {
  if (findings.length === 0) return 'No problems found.';
  const done = new Set(fixed);
  const rows = findings.map((f) => [
    f.kind,
    f.subject,
    f.detail,
    done.has(f) ? `fixed (${f.fix})` : (f.fix ?? 'needs a person'),
  ]);
  const head = ['problem', 'subject', 'detail', '--fix'];
  const widths = head.map((h, i) => Math.min(70, Math.max(h.length, ...rows.map((r) => r[i]!.length))));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  const counts = FINDING_KINDS.map((k) => [k, findings.filter((f) => f.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}: ${n}`);
  return [
    line(head),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...rows.map(line),
    '',
    `${findings.length} problem(s) — ${counts.join(', ')}${fixed.length ? `; ${fixed.length} fixed` : ''}`,
  ].join('\n');
}
