import http from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { and, count, desc, eq, gt, gte, isNull, lt, sum } from 'drizzle-orm';
import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import { SESSION_COOKIE } from '../../common/cookies';
import type { Db } from '../../server/db/client';
import { sessions, transcripts, usageRecords, users } from '../../server/db/schema';
import { usagePeriod } from '../../server/modules/billing/period';
import { hashToken } from '../../server/modules/auth/tokens';
import { summaryColumns } from '../../server/modules/transcription/summary-columns';

/**
 * `npm run bench:ssr`'s yardstick for the API's own cost (started by ./bare-main.ts, never by the
 * product): bare Hono handlers on a second port of the same process, reading the same rows from the
 * same database handle as GET /common-api/v1/user and the transcript list — the session's user
 * (the same join on the token's hash) with the minutes used this period, and the user's first
 * page of transcripts with its count — with no middleware, envelope or payload shaping. Same
 * process, same event loop and PGlite instance: the ratio is what our stack costs on top.
 */
export function bareApp(db: Db) {
  const userOf = async (token: string | undefined) => {
    if (!token) return null;
    const rows = await db
      .select({ user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.tokenHash, hashToken(token)),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date()),
        ),
      )
      .limit(1);
    return rows[0]?.user ?? null;
  };
  const app = new Hono();
  app.get('/user', async (c) => {
    const user = await userOf(getCookie(c, SESSION_COOKIE));
    if (!user) return c.json(null, 401);
    // The account page shows the minutes used this period: the same sum ours reads.
    const { start, end } = usagePeriod(user.periodAnchor, new Date());
    const [usage] = await db
      .select({ seconds: sum(usageRecords.seconds) })
      .from(usageRecords)
      .where(
        and(
          eq(usageRecords.userId, user.id),
          gte(usageRecords.createdAt, start),
          lt(usageRecords.createdAt, end),
        ),
      );
    return c.json({ user, seconds: usage?.seconds ?? null });
  });
  app.get('/transcripts', async (c) => {
    const user = await userOf(getCookie(c, SESSION_COOKIE));
    if (!user) return c.json(null, 401);
    const where = eq(transcripts.userId, user.id);
    const [items, [total]] = await Promise.all([
      db
        .select(summaryColumns)
        .from(transcripts)
        .where(where)
        .orderBy(desc(transcripts.createdAt), desc(transcripts.id))
        .limit(20),
      db.select({ n: count() }).from(transcripts).where(where),
    ]);
    return c.json({ items, total: total?.n ?? 0 });
  });
  return app;
}

export function startBareBench(db: Db, port: number, host: string) {
  const listener = getRequestListener(bareApp(db).fetch);
  const server = http.createServer((req, res) => {
    void listener(req, res);
  });
  server.listen(port, host);
  return server;
}
