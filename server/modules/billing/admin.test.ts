import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { openDatabase, pgliteLockFile, type Database } from '../../db/client';
import { subscriptions, usageRecords, users } from '../../db/schema';
import { RANK_LIMITS, RANKS } from '../../../common/ranks';
import { signedInUser } from '../../test/users';
import { SLOW_PROCESS_TIMEOUT_MS } from '../../test/wait';
import { userForToken } from '../auth/session-user';
import { assertAdmission, minutesUsed } from '../transcription/admission';
import { AdminError, grantRank, parseQuota, setQuota } from './admin';
import { recomputeRank } from './rank';
import { tryLockFile } from '../../process/file-lock';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({});
});
afterAll(() => database.close());

const at = (iso: string) => new Date(iso);

describe('ranks from grants and subscriptions', () => {
  it('a grant wins, ends on its date, and the subscription rank comes back', async () => {
    const db = database.db;
    const u = await signedInUser(db);
    await db.insert(subscriptions).values({
      id: `sub_${u.user.id}`,
      userId: u.user.id,
      customerId: 'cus_1',
      status: 'active',
      rank: 'BASIC',
      interval: 'monthly',
      currentPeriodStart: at('2026-11-03T00:00:00Z'),
      currentPeriodEnd: at('2026-12-03T00:00:00Z'),
    });
    expect((await recomputeRank(db, u.user.id, at('2026-11-10T00:00:00Z')))!.rankName).toBe('BASIC');

    const granted = await grantRank(
      db,
      u.user.email,
      'unlimited',
      at('2026-12-01T00:00:00Z'),
      at('2026-11-10T00:00:00Z'),
    );
    expect(granted).toMatchObject({ rankName: 'UNLIMITED', periodAnchor: null });

    // The session read after the grant ends sees the subscription's rank and its billing anchor.
    const after = await userForToken(db, u.token, at('2026-12-01T00:00:01Z'));
    expect(after).toMatchObject({ rankName: 'BASIC', grantedRank: null });
    expect(after!.periodAnchor).toEqual(at('2026-11-03T00:00:00Z'));

    await grantRank(db, u.user.email, 'ACME Corp', null, at('2026-12-02T00:00:00Z'));
    expect((await recomputeRank(db, u.user.id, at('2030-01-01T00:00:00Z')))!.rankName).toBe('ACME Corp');
    await grantRank(db, u.user.email, 'none', null, at('2026-12-02T00:00:00Z'));
    await db.update(subscriptions).set({ status: 'canceled' }).where(eq(subscriptions.userId, u.user.id));
    expect((await recomputeRank(db, u.user.id, at('2026-12-05T00:00:00Z')))!.rankName).toBe('Free');
  });

  it('refuses bad grants', async () => {
    const u = await signedInUser(database.db);
    const now = at('2026-11-10T00:00:00Z');
    await expect(grantRank(database.db, 'nobody@example.test', 'BASIC', null, now)).rejects.toThrow(
      AdminError,
    );
    await expect(
      grantRank(database.db, u.user.email, 'BASIC', at('2026-01-01T00:00:00Z'), now),
    ).rejects.toThrow(/future/);
    await expect(grantRank(database.db, u.user.email, '<script>', null, now)).rejects.toThrow(AdminError);
  });

  it('sets and resets per-account limits, which apply to Enterprise and custom ranks only', async () => {
    const u = await signedInUser(database.db);
    const quota = parseQuota(['minutes_per_month=5000', 'share_links=unlimited', 'export_formats=txt,docx']);
    expect(quota).toEqual({ minutes_per_month: 5000, share_links: null, export_formats: ['txt', 'docx'] });
    expect(() => parseQuota(['max_file_mb=unlimited'])).toThrow(/cannot be unlimited/);
    expect(() => parseQuota(['export_formats=pdf'])).toThrow(/Unknown export formats: pdf/);
    expect(() => parseQuota(['colour=blue'])).toThrow(/Unknown limit/);
    expect(() => parseQuota(['concurrent_jobs=-1'])).toThrow(/whole number/);

    const now = at('2026-11-10T00:00:00Z');
    expect((await setQuota(database.db, u.user.email, quota, now)).applies).toBe(false);
    await grantRank(database.db, u.user.email, 'Enterprise', null, now);
    const { user, applies } = await setQuota(database.db, u.user.email, { concurrent_jobs: 20 }, now);
    expect(applies).toBe(true);
    expect(user.customLimits).toEqual({ ...quota, concurrent_jobs: 20 });
    expect((await setQuota(database.db, u.user.email, 'reset', now)).user.customLimits).toBeNull();
  });
});

describe('quota per rank', () => {
  it.each(RANKS.filter((r) => r !== 'Enterprise'))(
    '%s: file size, duration and minutes follow the table',
    async (rank) => {
      const db = database.db;
      const limits = RANK_LIMITS[rank];
      const u = await signedInUser(db, { rankName: rank });
      const now = at('2026-11-15T00:00:00Z');
      const mb = 1024 * 1024;
      await expect(
        assertAdmission(db, u.user, { sizeBytes: limits.max_file_mb * mb }, now),
      ).resolves.toBeDefined();
      await expect(
        assertAdmission(db, u.user, { sizeBytes: limits.max_file_mb * mb + 1 }, now),
      ).rejects.toMatchObject({
        code: 41301,
        data: { limit_mb: limits.max_file_mb },
      });
      await expect(
        assertAdmission(db, u.user, { durationSec: limits.max_duration_minutes * 60 + 1 }, now),
      ).rejects.toMatchObject({ code: 40302 });
      if (limits.minutes_per_month === null) {
        await db.insert(usageRecords).values({
          userId: u.user.id,
          transcriptId: crypto.randomUUID(),
          seconds: 10_000_000,
          createdAt: now,
        });
        await expect(assertAdmission(db, u.user, { durationSec: 600 }, now)).resolves.toBeDefined();
      } else {
        const used = limits.minutes_per_month - 5;
        await db.insert(usageRecords).values({
          userId: u.user.id,
          transcriptId: crypto.randomUUID(),
          seconds: used * 60,
          createdAt: now,
        });
        await expect(assertAdmission(db, u.user, { durationSec: 5 * 60 }, now)).resolves.toBeDefined();
        await expect(assertAdmission(db, u.user, { durationSec: 5 * 60 + 30 }, now)).rejects.toMatchObject({
          code: 40303,
          data: { minutes_left: 5 },
        });
      }
    },
  );

  it('counts usage in the billing month, not the calendar month, on a paid plan', async () => {
    const db = database.db;
    const u = await signedInUser(db, { rankName: 'STARTER' });
    await db
      .update(users)
      .set({ periodAnchor: at('2026-10-20T00:00:00Z') })
      .where(eq(users.id, u.user.id));
    const [user] = await db.select().from(users).where(eq(users.id, u.user.id));
    const record = (iso: string, minutes: number) =>
      db.insert(usageRecords).values({
        userId: u.user.id,
        transcriptId: crypto.randomUUID(),
        seconds: minutes * 60,
        createdAt: at(iso),
      });
    await record('2026-11-19T23:00:00Z', 100); // previous billing month
    await record('2026-11-20T01:00:00Z', 40);
    await record('2026-12-05T00:00:00Z', 2);
    expect(await minutesUsed(db, user!, at('2026-12-10T00:00:00Z'))).toBe(42);
    expect(await minutesUsed(db, user!, at('2026-11-19T23:30:00Z'))).toBe(100);
  });
});

// Spawned commands that open PGlite (initdb): slow when the two cores are shared.
describe('npm run admin', { timeout: SLOW_PROCESS_TIMEOUT_MS }, () => {
  it('explains unknown accounts and commands', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cs-admin-'));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
    const missing = run('grant-rank', 'nobody@example.test', 'BASIC');
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('No account with the e-mail nobody@example.test');
    const usage = run('frobnicate', 'x@example.test');
    expect(usage.status).toBe(1);
    expect(usage.stderr).toContain('Usage: npm run admin');
  });

  it('writes the grant into the database it opens', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cs-admin-'));
    const pglite = path.join(dataDir, 'pglite');
    let db = await openDatabase({ pgliteDir: pglite });
    await db.db.insert(users).values({ email: 'boss@example.test' });
    await db.close();
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      });
    // A process holding the embedded database (a running server) keeps the command away from it.
    const held = tryLockFile(pgliteLockFile(pglite))!;
    const busy = run('grant-rank', 'boss@example.test', 'BASIC');
    held.release();
    expect(busy.status).toBe(1);
    expect(busy.stderr).toContain(`is in use by process ${process.pid}`);
    expect(busy.stderr).toContain('stop the server first');

    const ok = run('grant-rank', 'boss@example.test', 'advanced', '--until', '2099-01-01');
    expect(ok.stdout).toContain('boss@example.test: rank ADVANCED until 2099-01-01T00:00:00.000Z');
    const quota = run('set-quota', 'boss@example.test', 'concurrent_jobs=9');
    expect(quota.stdout).toContain('"concurrent_jobs":9');
    expect(quota.stdout).toContain('ADVANCED uses the standard table');
    db = await openDatabase({ pgliteDir: pglite });
    const [row] = await db.db.select().from(users).where(eq(users.email, 'boss@example.test'));
    await db.close();
    expect(row).toMatchObject({
      rankName: 'ADVANCED',
      grantedRank: 'ADVANCED',
      customLimits: { concurrent_jobs: 9 },
    });
  });
});
