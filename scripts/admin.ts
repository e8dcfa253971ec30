// Operator commands. Usage: npm run admin -- <command> …
//   grant-rank <email> <rank|none> [--until YYYY-MM-DD]
//   set-quota <email> key=value … | reset     (minutes_per_month=5000 share_links=unlimited export_formats=txt,srt …)
//   show-user <email>
//   import-tools <file.json|folder>            (default folder: content/tools)
//   add-redirect <path> <target> [301|302] · remove-redirect <path> · list-redirects
//   payouts · payout-paid <id> <paypal-transaction-id> · payout-reject <id> <reason…>
//   check [--fix]                              (database ↔ media store ↔ queue consistency)
//   backup <file> · restore <file>             (embedded database + media in one tar)
// With the embedded database (no DATABASE_URL) stop the server first: one process owns PGlite.
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { limitsFor } from '../common/ranks';
import { DatabaseBusyError, openDatabase } from '../server/db/client';
import { subscriptions, users } from '../server/db/schema';
import { loadEnv } from '../server/env';
import { AdminError, grantRank, parseQuota, setQuota } from '../server/modules/billing/admin';
import { CONTENT_DIR, ContentError, readToolFiles } from '../server/modules/seo/content-files';
import { importToolPages } from '../server/modules/seo/pages';
import { RuleError, addRouteRule, listRouteRules, removeRouteRule } from '../server/modules/seo/route-rules';
import { runBackup, runCheck, runRestore } from './admin-ops';
import { PayoutError, markPayoutPaid, openPayouts, rejectPayout } from '../server/modules/affiliate/payouts';

const USAGE = `Usage: npm run admin -- <command>
  grant-rank <email> <rank|none> [--until YYYY-MM-DD]
  set-quota <email> <key=value …|reset>
      keys: minutes_per_month max_file_mb max_duration_minutes concurrent_jobs share_links
            retention_days (numbers, or 'unlimited' where allowed) export_formats=txt,srt,vtt,docx,json
  show-user <email>
  import-tools [file.json|folder]          (tool pages; default content/tools)
  add-redirect <path> <path|https://…> [301|302]
  remove-redirect <path>
  list-redirects
  payouts                                  (open affiliate payout requests)
  payout-paid <id> <paypal-transaction-id>
  payout-reject <id> <reason…>
  check [--fix]                            (rows without files, files without rows, lost jobs;
                                           --fix quarantines orphan files and requeues lost jobs)
  backup <file>                            (embedded database + media, the server stopped)
  restore <file>                           (into a fresh DATA_DIR)`;

async function main(argv: string[]): Promise<number> {
  const [command, first, ...rest] = argv;
  const email = first ?? '';
  const noArgument = ['import-tools', 'list-redirects', 'payouts', 'check'];
  if (!command || (!first && !noArgument.includes(command))) {
    console.error(USAGE);
    return 2;
  }
  const env = loadEnv();
  // These open the database themselves (restore makes it).
  if (command === 'backup') return runBackup(env, first!);
  if (command === 'restore') return runRestore(env, first!);
  let database;
  try {
    database = await openDatabase({ url: env.DATABASE_URL, pgliteDir: path.join(env.DATA_DIR, 'pglite') });
  } catch (err) {
    if (!(err instanceof DatabaseBusyError)) throw err;
    console.error(`${err.message}\nWith the embedded database, stop the server first (or set DATABASE_URL).`);
    return 1;
  }
  const now = new Date();
  try {
    if (command === 'check') {
      if (first && first !== '--fix') throw new AdminError(USAGE);
      return await runCheck(env, database, first === '--fix');
    } else if (command === 'grant-rank') {
      const [rank, flag, date] = rest;
      if (!rank || (flag && flag !== '--until') || (flag && !date)) throw new AdminError(USAGE);
      const until = date ? new Date(`${date}T00:00:00Z`) : null;
      if (until && Number.isNaN(until.getTime())) throw new AdminError(`Not a date: ${date}`);
      const user = await grantRank(database.db, email, rank, until, now);
      console.log(
        `${user.email}: rank ${user.rankName}${user.grantedUntil ? ` until ${user.grantedUntil.toISOString()}` : ''}`,
      );
    } else if (command === 'set-quota') {
      if (rest.length === 0) throw new AdminError(USAGE);
      const changes = rest.length === 1 && rest[0] === 'reset' ? 'reset' : parseQuota(rest);
      const { user, applies } = await setQuota(database.db, email, changes, now);
      console.log(`${user.email}: custom limits ${JSON.stringify(user.customLimits)}`);
      if (!applies) {
        console.log(
          `Note: ${user.rankName} uses the standard table; grant Enterprise or a custom rank for these to apply.`,
        );
      }
    } else if (command === 'import-tools') {
      const files = readToolFiles(first ?? path.join(CONTENT_DIR, 'tools'));
      const rows = await importToolPages(database.db, files, now);
      console.log(
        `${files.length} tool pages imported (${rows} page languages); a running server shows them within a minute.`,
      );
    } else if (command === 'add-redirect') {
      const [target, status] = rest;
      if (!target) throw new AdminError(USAGE);
      const rule = await addRouteRule(database.db, {
        path: email,
        target,
        status: status ? Number(status) : undefined,
      });
      console.log(`${rule.path} → ${rule.target} (${rule.status})`);
    } else if (command === 'remove-redirect') {
      console.log((await removeRouteRule(database.db, email)) ? 'removed' : `no rule for ${email}`);
    } else if (command === 'list-redirects') {
      for (const r of await listRouteRules(database.db)) console.log(`${r.path} → ${r.target} (${r.status})`);
    } else if (command === 'payouts') {
      const open = await openPayouts(database.db);
      if (open.length === 0) console.log('No open payout requests.');
      for (const { payout, email } of open) {
        const amount = (payout.amount / 100).toFixed(2);
        console.log(
          `${payout.id}  ${payout.requestedAt.toISOString().slice(0, 10)}  ${amount} ${payout.currency.toUpperCase()}  ${email} → PayPal ${payout.paypalEmail}`,
        );
      }
    } else if (command === 'payout-paid') {
      const [txn] = rest;
      if (!txn) throw new AdminError(USAGE);
      const p = await markPayoutPaid(database.db, email, txn, now);
      console.log(`${p.id}: paid (${txn})`);
    } else if (command === 'payout-reject') {
      const p = await rejectPayout(database.db, email, rest.join(' '), now);
      console.log(`${p.id}: rejected; its commissions are available again`);
    } else if (command === 'show-user') {
      const [user] = await database.db
        .select()
        .from(users)
        .where(eq(users.email, email.toLowerCase()))
        .limit(1);
      if (!user) throw new AdminError(`No account with the e-mail ${email}`);
      const subs = await database.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
      console.log(
        JSON.stringify(
          {
            email: user.email,
            rank: user.rankName,
            granted: user.grantedRank ? { rank: user.grantedRank, until: user.grantedUntil } : null,
            limits: limitsFor(user.rankName, user.customLimits),
            subscriptions: subs.map((s) => ({
              id: s.id,
              status: s.status,
              rank: s.rank,
              period_end: s.currentPeriodEnd,
            })),
          },
          null,
          2,
        ),
      );
    } else {
      throw new AdminError(USAGE);
    }
    return 0;
  } catch (err) {
    if (
      err instanceof AdminError ||
      err instanceof RuleError ||
      err instanceof ContentError ||
      err instanceof PayoutError
    ) {
      console.error(err.message);
      return 1;
    }
    throw err;
  } finally {
    await database.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
