// Transcript events over PostgreSQL's LISTEN/NOTIFY: several web processes (and workers) sharing
// one DATABASE_URL without Redis still see each other's progress, and a cancel reaches the process
// running the engine. Redis pub/sub replaces it when REDIS_URL is set (redis-events.ts).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import { outageLog } from '../../outage-log';
import { createLocalEvents, type TranscriptEvent, type TranscriptEvents } from './events';

export const PG_EVENTS_CHANNEL = 'clipscribe_events';
/** NOTIFY refuses payloads of 8000 bytes and more: longer events go out in parts. */
const PART_BYTES = 7000;
/** Parts of a message not completed within this time are dropped (their sender died). */
const PARTS_TTL_MS = 30_000;

/** One notification: a whole event, or part `n` of `of` of one. */
interface Wire {
  /** The sending process, which delivers to itself directly. */
  o: string;
  /** The transcript (or the cancel channel). */
  i?: string;
  e?: TranscriptEvent;
  m?: string;
  n?: number;
  of?: number;
  d?: string;
}

/** What pg-events needs of the database: a query for NOTIFY, and a dedicated client to LISTEN on. */
export interface PgEventsDeps {
  /** Runs `select pg_notify($1, $2), …` with the given payloads, in order, in one statement. */
  notify(channel: string, payloads: string[]): Promise<void>;
  /** A new connection that is not part of any pool (LISTEN lives as long as its session). */
  connect(): Promise<ListenClient>;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  /** Wait before connecting again after the listening connection is lost (default 1 s, growing). */
  reconnectMs?: number;
}

export interface ListenClient {
  query(text: string): Promise<unknown>;
  on(event: 'notification', fn: (msg: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', fn: (err: Error) => void): unknown;
  on(event: 'end', fn: () => void): unknown;
  end(): Promise<void>;
}

/** Splits a string into pieces of at most `max` UTF-8 bytes, never inside a character. */
export function splitUtf8(text: string, max: number): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + max);
    while (Buffer.byteLength(text.slice(start, end)) > max) end -= Math.ceil((end - start) / 8);
    // Never between the two halves of a surrogate pair.
    if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

export function createPgEvents(deps: PgEventsDeps): TranscriptEvents {
  const local = createLocalEvents();
  const origin = randomUUID();
  const partial = new Map<string, { parts: string[]; got: number; at: number }>();
  const listening = outageLog(deps.logger, 'listening for transcript events');
  const sending = outageLog(deps.logger, 'sending transcript events');
  let client: ListenClient | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;
  // Events leave in the order they were published (segment n before n+1): one at a time.
  let tail: Promise<void> = Promise.resolve();

  function receive(payload: string | undefined) {
    if (!payload) return;
    let wire: Wire;
    try {
      wire = JSON.parse(payload) as Wire;
    } catch {
      return deps.logger.warn('a transcript event that is not JSON was ignored');
    }
    if (wire.o === origin) return;
    if (wire.e && wire.i) return local.publish(wire.i, wire.e);
    if (!wire.m || wire.n === undefined || !wire.of || wire.d === undefined) return;
    const key = `${wire.o}:${wire.m}`;
    const now = Date.now();
    for (const [k, v] of partial) if (now - v.at > PARTS_TTL_MS) partial.delete(k);
    const entry = partial.get(key) ?? { parts: new Array<string>(wire.of).fill(''), got: 0, at: now };
    partial.set(key, entry);
    entry.parts[wire.n] = wire.d;
    if (++entry.got < wire.of) return;
    partial.delete(key);
    try {
      const whole = JSON.parse(entry.parts.join('')) as { i: string; e: TranscriptEvent };
      local.publish(whole.i, whole.e);
    } catch {
      deps.logger.warn('a transcript event in parts could not be put together');
    }
  }

  async function listen() {
    if (closed) return;
    let next: ListenClient | null = null;
    try {
      next = await deps.connect();
      const mine = next;
      mine.on('notification', (msg) => {
        if (msg.channel === PG_EVENTS_CHANNEL) receive(msg.payload);
      });
      const lost = (err?: Error) => {
        if (client !== mine) return;
        client = null;
        void mine.end().catch(() => undefined);
        if (closed) return;
        listening.failed(err ?? Object.assign(new Error('Connection terminated'), { code: '08006' }));
        later();
      };
      mine.on('error', lost);
      mine.on('end', () => lost());
      await mine.query(`LISTEN ${PG_EVENTS_CHANNEL}`);
      if (closed) return void mine.end().catch(() => undefined);
      client = mine;
      failures = 0;
      listening.ok();
    } catch (err) {
      await next?.end().catch(() => undefined);
      if (closed) return;
      listening.failed(err);
      later();
    }
  }

  function later() {
    failures++;
    const base = deps.reconnectMs ?? 1_000;
    retry = setTimeout(() => void listen(), Math.min(base * 2 ** Math.min(failures - 1, 4), 15_000));
    retry.unref();
  }

  void listen();

  return {
    publish(id, event) {
      // This process's subscribers at once; the others through the database.
      local.publish(id, event);
      const whole = JSON.stringify({ o: origin, i: id, e: event } satisfies Wire);
      let payloads = [whole];
      if (Buffer.byteLength(whole) >= PART_BYTES) {
        const m = randomUUID().slice(0, 8);
        const pieces = splitUtf8(JSON.stringify({ i: id, e: event }), PART_BYTES - 200);
        payloads = pieces.map((d, n) =>
          JSON.stringify({ o: origin, m, n, of: pieces.length, d } satisfies Wire),
        );
      }
      tail = tail
        .then(() => deps.notify(PG_EVENTS_CHANNEL, payloads))
        .then(
          () => sending.ok(),
          (err: unknown) => void sending.failed(err),
        );
    },
    subscribe: local.subscribe,
    async close() {
      closed = true;
      clearTimeout(retry);
      await tail;
      await local.close();
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

/** pg-events on the deployment's PostgreSQL: NOTIFY through the pool, LISTEN on a client of its own. */
export async function createPostgresEvents(url: string, db: Db, logger: Logger): Promise<TranscriptEvents> {
  const { default: pg } = await import('pg');
  return createPgEvents({
    logger,
    notify: async (channel, payloads) => {
      await db.execute(
        sql`select ${sql.join(
          payloads.map((p) => sql`pg_notify(${channel}, ${p})`),
          sql`, `,
        )}`,
      );
    },
    connect: async () => {
      const client = new pg.Client({
        connectionString: url,
        keepAlive: true,
        connectionTimeoutMillis: 10_000,
      });
      // An error before 'connect' resolves is thrown by connect(); after it, pg-events listens.
      client.on('error', () => undefined);
      await client.connect();
      return client as unknown as ListenClient;
    },
  });
}
