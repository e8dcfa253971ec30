import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client';
import { sessions, users } from './schema';

// Runs on PGlite in `npm test`; tests/services runs the same file against PostgreSQL.
const url = process.env.TEST_DATABASE_URL;

describe(`database (${url ? 'postgres' : 'pglite'})`, () => {
  let database: Database;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-db-'));
  const pgliteDir = path.join(dir, 'pglite');
  beforeAll(async () => {
    database = await openDatabase({ url, pgliteDir });
    if (url) await database.db.delete(users);
  });
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('applies migrations and round-trips rows with defaults', async () => {
    const [u] = await database.db.insert(users).values({ email: 'a@example.com' }).returning();
    expect(u?.rankName).toBe('Free');
    expect(u?.emailVerified).toBe(false);
    expect(u?.createdAt).toBeInstanceOf(Date);
  });

  it('enforces unique e-mail and cascades session deletion', async () => {
    await expect(database.db.insert(users).values({ email: 'a@example.com' })).rejects.toThrow();
    const [u] = await database.db.select().from(users).where(eq(users.email, 'a@example.com'));
    await database.db
      .insert(sessions)
      .values({ userId: u!.id, tokenHash: 'h1', expiresAt: new Date(Date.now() + 1000) });
    await database.db.delete(users).where(eq(users.id, u!.id));
    expect(await database.db.select().from(sessions).where(eq(sessions.tokenHash, 'h1'))).toHaveLength(0);
  });

  it('keeps data and applies migrations idempotently on reopen', async () => {
    await database.db.insert(users).values({ email: 'kept@example.com' });
    await database.close();
    database = await openDatabase({ url, pgliteDir });
    const rows = await database.db.select().from(users).where(eq(users.email, 'kept@example.com'));
    expect(rows).toHaveLength(1);
  });

  it.skipIf(url)('runs the embedded database with the small server settings', async () => {
    const shown = async (name: string) =>
      (await database.db.execute(sql.raw(`show ${name}`))) as unknown as { rows: Record<string, string>[] };
    expect((await shown('shared_buffers')).rows[0]).toEqual({ shared_buffers: '16MB' });
    expect((await shown('work_mem')).rows[0]).toEqual({ work_mem: '2MB' });
    expect((await shown('max_connections')).rows[0]).toEqual({ max_connections: '10' });
  });
});
