import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase, type Database } from './client';
import { shareLinks, transcripts, users, workspaceMembers, workspaces } from './schema';
import { newShare, newTranscript } from '../test/factories';

// Runs on PGlite in `npm test`; tests/services runs the same file against PostgreSQL.
const url = process.env.TEST_DATABASE_URL;

describe(`workspaces of new accounts (${url ? 'postgres' : 'pglite'})`, () => {
  let database: Database;
  const emails: string[] = [];
  beforeAll(async () => {
    database = await openDatabase({ url, pgliteDir: 'memory://' });
  });
  afterAll(async () => {
    for (const email of emails) await database.db.delete(users).where(eq(users.email, email));
    await database?.close();
  });

  async function newUser() {
    const email = `ws-${Date.now()}-${emails.length}@example.com`;
    emails.push(email);
    const [user] = await database.db.insert(users).values({ email }).returning();
    return user!;
  }

  it('gives every new account its personal workspace, with the account as its owner', async () => {
    const user = await newUser();
    const rows = await database.db
      .select({
        id: workspaces.id,
        kind: workspaces.kind,
        name: workspaces.name,
        role: workspaceMembers.role,
      })
      .from(workspaces)
      .innerJoin(workspaceMembers, eq(workspaceMembers.workspaceId, workspaces.id))
      .where(eq(workspaces.personalUserId, user.id));
    expect(rows).toEqual([{ id: expect.any(String), kind: 'personal', name: null, role: 'owner' }]);
  });

  it('puts a row inserted without a workspace where its creator or its transcript is', async () => {
    const user = await newUser();
    const [personal] = await database.db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.personalUserId, user.id));
    const own = await newTranscript(database.db, user.id);
    expect(own.workspaceId).toBe(personal!.id);

    // A team transcript: its share link belongs to the team, whoever made the link.
    const [team] = await database.db
      .insert(workspaces)
      .values({ kind: 'team', name: 'Team', createdBy: user.id })
      .returning();
    const shared = await newTranscript(database.db, user.id, { workspaceId: team!.id });
    const link = await newShare(database.db, shared);
    expect(link.workspaceId).toBe(team!.id);
    await database.db.delete(workspaces).where(eq(workspaces.id, team!.id));
    expect(await database.db.select().from(shareLinks).where(eq(shareLinks.id, link.id))).toEqual([]);
  });

  it('refuses a personal workspace without its account and a team workspace with one', async () => {
    const user = await newUser();
    const refused = (values: typeof workspaces.$inferInsert) =>
      database.db
        .insert(workspaces)
        .values(values)
        .then(
          () => 'accepted',
          (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ''}`,
        );
    expect(await refused({ kind: 'personal' })).toMatch(/workspaces_personal_check/);
    expect(await refused({ kind: 'team', name: 'x', personalUserId: user.id })).toMatch(
      /workspaces_personal_check|workspaces_personal_user_id_unique/,
    );
    // A second personal workspace for the same account.
    expect(await refused({ kind: 'personal', personalUserId: user.id })).toMatch(/unique|duplicate/i);
  });

  it('removes the personal workspace and its rows with the account', async () => {
    const user = await newUser();
    const t = await newTranscript(database.db, user.id);
    await database.db.delete(users).where(eq(users.id, user.id));
    expect(await database.db.select().from(transcripts).where(eq(transcripts.id, t.id))).toEqual([]);
    expect(
      await database.db
        .select()
        .from(workspaces)
        .where(and(eq(workspaces.personalUserId, user.id))),
    ).toEqual([]);
  });
});

// An older database full of rows: the migration gives every account its personal workspace and
// moves every row there, keeping every id.
describe.skipIf(url)('the workspaces migration on a database with rows', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-workspaces-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('moves every account’s rows into its personal workspace', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    const before = path.join(dir, 'before');
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag.endsWith('_workspaces'));
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalPath, JSON.stringify(journal));

    const client = new PGlite('memory://');
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: before });
    const A = '00000000-0000-4000-8000-00000000000a';
    const B = '00000000-0000-4000-8000-00000000000b';
    await client.exec(`
      insert into users (id, email, created_at) values
        ('${A}', 'a@example.com', '2025-01-02T03:04:05Z'), ('${B}', 'b@example.com', now());
      insert into folders (id, user_id, name) values
        ('00000000-0000-4000-8000-0000000000f1', '${A}', 'Interviews');
      insert into transcripts (id, user_id, folder_id, name, source, status) values
        ('00000000-0000-4000-8000-0000000000a1', '${A}', '00000000-0000-4000-8000-0000000000f1', 'a1', 'upload', 'done'),
        ('00000000-0000-4000-8000-0000000000a2', '${A}', null, 'a2', 'upload', 'queued'),
        ('00000000-0000-4000-8000-0000000000b1', '${B}', null, 'b1', 'import', 'done');
      insert into share_links (id, transcript_id, user_id) values ('share-a1', '00000000-0000-4000-8000-0000000000a1', '${A}');
      insert into usage_records (user_id, transcript_id, seconds) values
        ('${A}', '00000000-0000-4000-8000-0000000000a1', 60),
        ('${B}', '00000000-0000-4000-8000-0000000000ff', 30);
      insert into api_keys (id, user_id, name, prefix, key_hash) values
        ('00000000-0000-4000-8000-0000000000c1', '${B}', 'ci', 'csk_x', 'hash-b');
      insert into webhook_endpoints (id, user_id, url, events, secret) values
        ('00000000-0000-4000-8000-0000000000e1', '${A}', 'https://example.com/h', '[]', 'whsec_x');
    `);

    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    const rows = async (query: string) => (await client.query<Record<string, unknown>>(query)).rows;
    const spaces = await rows(
      `select w.personal_user_id as user_id, w.kind, w.name, w.created_at, m.role
       from workspaces w join workspace_members m on m.workspace_id = w.id order by w.personal_user_id`,
    );
    expect(spaces).toEqual([
      {
        user_id: A,
        kind: 'personal',
        name: null,
        created_at: new Date('2025-01-02T03:04:05Z'),
        role: 'owner',
      },
      { user_id: B, kind: 'personal', name: null, created_at: expect.any(Date), role: 'owner' },
    ]);
    const personal = `(select id from workspaces where personal_user_id = x.user_id)`;
    const check = (table: string, key = 'id') =>
      rows(`select ${key} as id, x.workspace_id = ${personal} as moved from ${table} x order by ${key}`);
    expect(await check('transcripts')).toEqual([
      { id: '00000000-0000-4000-8000-0000000000a1', moved: true },
      { id: '00000000-0000-4000-8000-0000000000a2', moved: true },
      { id: '00000000-0000-4000-8000-0000000000b1', moved: true },
    ]);
    expect(await check('folders')).toEqual([{ id: '00000000-0000-4000-8000-0000000000f1', moved: true }]);
    expect(await check('share_links')).toEqual([{ id: 'share-a1', moved: true }]);
    expect(await check('usage_records', 'transcript_id')).toEqual([
      { id: '00000000-0000-4000-8000-0000000000a1', moved: true },
      { id: '00000000-0000-4000-8000-0000000000ff', moved: true },
    ]);
    expect(await check('api_keys')).toEqual([{ id: '00000000-0000-4000-8000-0000000000c1', moved: true }]);
    expect(await check('webhook_endpoints')).toEqual([
      { id: '00000000-0000-4000-8000-0000000000e1', moved: true },
    ]);
    // The folder link and the rows' own columns are untouched.
    expect(await rows(`select folder_id, user_id, name from transcripts where name = 'a1'`)).toEqual([
      { folder_id: '00000000-0000-4000-8000-0000000000f1', user_id: A, name: 'a1' },
    ]);
    // The columns are NOT NULL now, and accounts made after the migration get theirs too.
    await client.exec(
      `insert into users (id, email) values ('00000000-0000-4000-8000-00000000000c', 'c@example.com')`,
    );
    expect(await rows(`select count(*)::int as n from workspaces`)).toEqual([{ n: 3 }]);
    const nullable = await rows(
      `select table_name from information_schema.columns where column_name = 'workspace_id' and is_nullable = 'YES' order by 1`,
    );
    expect(nullable.filter((r) => r.table_name !== 'workspace_invitations')).toEqual([]);
    await client.close();
  });
});
