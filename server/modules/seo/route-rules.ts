import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { routeRules, type RouteRule } from '../../db/schema';
import { REDIRECT_STATUSES, type RedirectStatus } from '../../../common/record-states';

// Redirect rules by path (docs/product.md#pages): to an internal path or an external
// address, 301 or 302. A rule may not point at a path that has a rule, and no rule may point at
// a path that gets one, so every redirect is a single hop: no chains, no loops.

const CACHE_MS = 60_000;

export class RuleError extends Error {}

const isRedirectStatus = (n: number): n is RedirectStatus =>
  (REDIRECT_STATUSES as readonly number[]).includes(n);

/** '/old/' → '/old'; query and fragment dropped. */
export function normalizeRulePath(p: string): string {
  const pathOnly = p.split(/[?#]/)[0] ?? '';
  if (!pathOnly.startsWith('/') || pathOnly.startsWith('//')) throw new RuleError(`Not a path: ${p}`);
  return pathOnly.length > 1 ? pathOnly.replace(/\/+$/, '') : pathOnly;
}

function internalTarget(target: string): string | null {
  return target.startsWith('/') && !target.startsWith('//') ? normalizeRulePath(target) : null;
}

export async function addRouteRule(
  db: Db,
  input: { path: string; target: string; status?: number },
): Promise<RouteRule> {
  const path = normalizeRulePath(input.path);
  const status = input.status ?? 301;
  if (!isRedirectStatus(status)) throw new RuleError('The status is 301 or 302');
  const internal = internalTarget(input.target);
  if (!internal) {
    let url: URL;
    try {
      url = new URL(input.target);
    } catch {
      throw new RuleError(`The target is a path (/…) or an http(s) address: ${input.target}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new RuleError('Only http(s) addresses');
  }
  if (internal === path) throw new RuleError('A rule cannot redirect a path to itself');
  if (internal) {
    const [onward] = await db.select().from(routeRules).where(eq(routeRules.path, internal)).limit(1);
    if (onward)
      throw new RuleError(`${internal} redirects to ${onward.target} already: point at the final address`);
  }
  const [incoming] = await db.select().from(routeRules).where(eq(routeRules.target, path)).limit(1);
  if (incoming) throw new RuleError(`${incoming.path} redirects to ${path}: that would make a chain`);
  const values = { path, target: internal ?? input.target, status };
  const [row] = await db
    .insert(routeRules)
    .values(values)
    .onConflictDoUpdate({ target: routeRules.path, set: { target: values.target, status } })
    .returning();
  return row!;
}

export async function removeRouteRule(db: Db, path: string): Promise<boolean> {
  const rows = await db
    .delete(routeRules)
    .where(eq(routeRules.path, normalizeRulePath(path)))
    .returning();
  return rows.length > 0;
}

export function listRouteRules(db: Db): Promise<RouteRule[]> {
  return db.select().from(routeRules).orderBy(routeRules.path);
}

/**
 * Rules in memory for a minute: the lookup runs before every page. The map keeps its identity
 * while the rules are unchanged, so the page cache (server/http/page-cache.ts) can tell a change.
 */
export function createRouteRules(db: Db) {
  let cached: { at: number; signature: string; rules: Map<string, RouteRule> } | null = null;
  async function current(): Promise<Map<string, RouteRule>> {
    if (!cached || Date.now() - cached.at > CACHE_MS) {
      const rows = await listRouteRules(db);
      const signature = JSON.stringify(rows);
      cached =
        cached?.signature === signature
          ? { ...cached, at: Date.now() }
          : { at: Date.now(), signature, rules: new Map(rows.map((r) => [r.path, r])) };
    }
    return cached.rules;
  }
  return {
    current,
    async lookup(pathname: string): Promise<RouteRule | null> {
      const rules = await current();
      let path: string;
      try {
        path = normalizeRulePath(pathname);
      } catch {
        return null;
      }
      return rules.get(path) ?? null;
    },
    invalidate() {
      if (cached) cached.at = 0;
    },
  };
}

export type RouteRules = ReturnType<typeof createRouteRules>;
