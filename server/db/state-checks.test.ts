import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase, type Database } from './client';
import { jobs, routeRules, transcripts, users, webhookDeliveries, webhookEndpoints } from './schema';
import { newTranscript } from '../test/factories';

// Runs on PGlite in `npm test`; tests/services runs the same file against PostgreSQL.
const url = process.env.TEST_DATABASE_URL;

/** The name of the CHECK constraint a failed statement broke, from the driver's error. */
async function brokenCheck(statement: Promise<unknown>): Promise<string> {
  const err = await statement.then(
    () => null,
    (e: unknown) => e as Error & { cause?: Error },
  );
  if (!err) throw new Error('the database accepted the row');
  const message = `${err.message} ${err.cause?.message ?? ''}`;
  return /violates check constraint "([^"]+)"/.exec(message)?.[1] ?? message;
}

describe(`state columns (${url ? 'postgres' : 'pglite'})`, () => {
  let database: Database;
  let userId: string;
  beforeAll(async () => {
    database = await openDatabase({ url, pgliteDir: 'memory://' });
    const [u] = await database.db
      .insert(users)
      .values({ email: `states-${Date.now()}@example.com` })
      .returning();
    userId = u!.id;
  });
  afterAll(async () => {
    await database.db.execute(sql`delete from users where id = ${userId}`);
    await database.db.execute(sql`delete from route_rules where path like '/state-check-%'`);
    await database?.close();
  });

  it('refuses a status or kind outside its list', async () => {
    const { db } = database;
    const bad = 'paused' as never;
    expect(await brokenCheck(newTranscript(db, userId, { status: bad }))).toBe('transcripts_status_check');
    expect(await brokenCheck(newTranscript(db, userId, { source: bad }))).toBe('transcripts_source_check');
    expect(await brokenCheck(newTranscript(db, userId, { stage: bad }))).toBe('transcripts_stage_check');
    expect(await brokenCheck(db.insert(jobs).values({ status: bad }))).toBe('jobs_status_check');
    expect(
      await brokenCheck(
        db.insert(routeRules).values({ path: '/state-check-a', target: '/', status: 307 as never }),
      ),
    ).toBe('route_rules_status_check');
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({ userId, url: 'https://example.com/hook', events: [], secret: 'whsec_x' })
      .returning();
    expect(
      await brokenCheck(
        db
          .insert(webhookDeliveries)
          .values({ id: 'msg_state', endpointId: endpoint!.id, event: 'x', payload: {}, status: bad }),
      ),
    ).toBe('webhook_deliveries_status_check');
    expect(
      await brokenCheck(
        db.execute(sql`update webhook_endpoints set disabled_reason = 'owner' where id = ${endpoint!.id}`),
      ),
    ).toBe('webhook_endpoints_disabled_reason_check');
  });

  it('accepts every listed value, and null where the column is nullable', async () => {
    const row = await newTranscript(database.db, userId, {
      status: 'processing',
      source: 'import',
      stage: null,
    });
    expect(row.stage).toBeNull();
    const updated = await database.db
      .update(transcripts)
      .set({ status: 'canceled', stage: 'saving' })
      .where(sql`${transcripts.id} = ${row.id}`)
      .returning();
    expect(updated[0]?.status).toBe('canceled');
    const [rule] = await database.db
      .insert(routeRules)
      .values({ path: '/state-check-b', target: '/', status: 302 })
      .returning();
    expect(rule?.status).toBe(302);
  });
});

// A database that already holds rows the constraints would refuse (written by hand, say): the
// migration that adds them maps each to the nearest known state instead of failing.
describe.skipIf(url)('the state_checks migration on a database with rows', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cs-states-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('maps values outside the lists and then applies', async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    // The migrations before this one, in a folder of their own.
    const before = path.join(dir, 'before');
    cpSync(MIGRATIONS_DIR, before, { recursive: true });
    const journalPath = path.join(before, 'meta', '_journal.json');
    const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag.endsWith('_state_checks'));
    expect(at).toBeGreaterThan(0);
    journal.entries = journal.entries.slice(0, at);
    writeFileSync(journalPath, JSON.stringify(journal));

    const client = new PGlite('memory://');
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: before });
    await client.exec(`
      insert into users (id, email) values ('00000000-0000-4000-8000-000000000001', 'old@example.com');
      insert into transcripts (user_id, name, source, source_url, status, stage) values
        ('00000000-0000-4000-8000-000000000001', 'a', 'link', 'https://example.com/v', 'paused', 'uploading');
      insert into jobs (status, locked_by) values ('paused', 'w1');
      insert into route_rules (path, target, status) values ('/a', '/b', 307), ('/c', '/d', 308);
      insert into api_keys (user_id, name, scope, prefix, key_hash)
        values ('00000000-0000-4000-8000-000000000001', 'k', 'admin', 'cs_', 'h');
      insert into email_tokens (user_id, purpose, token_hash, expires_at)
        values ('00000000-0000-4000-8000-000000000001', 'magic', 't', now());
      insert into affiliates (user_id, terms_accepted_at) values ('00000000-0000-4000-8000-000000000001', now());
      insert into orders (id, email, kind, amount, currency, paid_at)
        values ('00000000-0000-4000-8000-0000000000a1', 'old@example.com', 'charge', 1000, 'usd', now());
      insert into settlements (id, affiliate_id, amount, currency, status, paypal_email, requested_at)
        values ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-000000000001', 300, 'usd',
          'processing', 'p@example.com', now());
      insert into commissions (affiliate_id, order_id, kind, amount, currency, available_at, settlement_id)
        values ('00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-0000000000a1', 'bonus', 300,
          'usd', now(), '00000000-0000-4000-8000-0000000000b1');
      insert into webhook_endpoints (id, user_id, url, events, secret, enabled, disabled_reason)
        values ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000001',
          'https://example.com/h', '[]', 'whsec_x', false, 'owner');
      insert into webhook_deliveries (id, endpoint_id, event, payload, status)
        values ('msg_1', '00000000-0000-4000-8000-0000000000c1', 'transcript.completed', '{}', 'sending');
    `);

    await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
    const one = async (query: string) => (await client.query<Record<string, unknown>>(query)).rows;
    expect(await one('select status, source, stage from transcripts')).toEqual([
      { status: 'failed', source: 'import', stage: null },
    ]);
    expect(await one('select status, locked_by from jobs')).toEqual([{ status: 'failed', locked_by: null }]);
    expect(await one('select path, status from route_rules order by path')).toEqual([
      { path: '/a', status: 302 },
      { path: '/c', status: 301 },
    ]);
    expect(await one('select scope from api_keys')).toEqual([{ scope: 'read' }]);
    expect(await one('select count(*)::int as n from email_tokens')).toEqual([{ n: 0 }]);
    expect(await one('select kind from orders')).toEqual([{ kind: 'payment' }]);
    expect(await one('select status, reason from settlements')).toEqual([
      { status: 'rejected', reason: 'Closed: unknown state' },
    ]);
    expect(await one('select kind, settlement_id from commissions')).toEqual([
      { kind: 'commission', settlement_id: null },
    ]);
    expect(await one('select disabled_reason from webhook_endpoints')).toEqual([
      { disabled_reason: 'failures' },
    ]);
    expect(await one('select status from webhook_deliveries')).toEqual([{ status: 'failed' }]);
    await client.close();
  });
});
