import { and, asc, count, eq, isNull, lt, or } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { apiKeys, users, workspaceMembers, type ApiKey, type User } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import { ApiKeyCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import { hashToken } from '../auth/tokens';
import { withCurrentRank } from '../billing/rank';
import type { MailMessage } from '../mail/mailer';
import { renderKeyCreatedMail } from './created-mail';

// API keys: `csk_` + 40 random base62 characters. Only the SHA-256 is stored (like session
// tokens); the first 12 characters are kept so the owner can tell keys apart.

export const API_KEY_PREFIX = 'csk_';
const KEY_RE = /^csk_[0-9A-Za-z]{40}$/;
const SHOWN = 12;
export const MAX_KEYS = 20;
export type ApiKeyScope = ApiKey['scope'];

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

function newKey(): string {
  // 40 characters from 62: rejection sampling keeps every character equally likely (~238 bits).
  let out = '';
  while (out.length < 40) {
    for (const b of randomBytes(64)) {
      if (b < 248 && out.length < 40) out += ALPHABET[b % 62];
    }
  }
  return API_KEY_PREFIX + out;
}

export function looksLikeApiKey(token: string | null | undefined): token is string {
  return !!token && KEY_RE.test(token);
}

export const apiKeyNotFound = () => new ApiError(ApiKeyCode.NOT_FOUND, 'errors.apiKeys.notFound');

/** The API shape of a key (never the key itself, which exists only in the create answer). */
export function apiKeyJson(k: ApiKey) {
  return {
    id: k.id,
    name: k.name,
    scope: k.scope,
    prefix: k.prefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}

/** The actor's keys: their own, for the workspace they act in (a key acts there only). */
const ownKeys = (actor: Actor) =>
  and(eq(apiKeys.userId, actor.user.id), eq(apiKeys.workspaceId, actor.workspace.id));

/** What making a key needs beside the database: the mail to its owner. */
export interface ApiKeyMailDeps {
  db: Db;
  now: () => Date;
  sendMail: (msg: MailMessage) => Promise<void>;
  appName: string;
  /** For the profile link in the mail. */
  publicUrl: string | null;
}

/** A new key, and a mail to its owner saying so (a key made from a stolen session is seen). */
export async function createApiKey(
  deps: ApiKeyMailDeps,
  actor: Actor,
  input: { name: string; scope: ApiKeyScope },
) {
  const db = deps.db;
  const [row] = await db.select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, actor.user.id));
  if ((row?.n ?? 0) >= MAX_KEYS) {
    throw new ApiError(ApiKeyCode.TOO_MANY, 'errors.apiKeys.tooMany', { limit: MAX_KEYS });
  }
  const key = newKey();
  const [created] = await db
    .insert(apiKeys)
    .values({
      workspaceId: actor.workspace.id,
      userId: actor.user.id,
      name: input.name.trim(),
      scope: input.scope,
      prefix: key.slice(0, SHOWN),
      keyHash: hashToken(key),
    })
    .returning();
  const mail = renderKeyCreatedMail({
    lang: actor.user.language,
    appName: deps.appName,
    name: created!.name,
    prefix: created!.prefix,
    scope: created!.scope,
    at: deps.now(),
    profileLink: deps.publicUrl ? `${deps.publicUrl.replace(/\/$/, '')}/profile` : null,
  });
  await deps.sendMail({ to: actor.user.email, ...mail });
  return { key, row: created! };
}

export async function listApiKeys(db: Db, actor: Actor) {
  return db.select().from(apiKeys).where(ownKeys(actor)).orderBy(asc(apiKeys.createdAt));
}

/** Revoking deletes the key: a request carrying it is refused from the next call on. */
export async function revokeApiKey(db: Db, actor: Actor, id: string) {
  const gone = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), ownKeys(actor)))
    .returning({ id: apiKeys.id });
  if (gone.length === 0) throw apiKeyNotFound();
}

/**
 * Every key of the account, in every workspace (the profile's "revoke all", and the option with a
 * password change or reset). Returns how many there were.
 */
export async function revokeAllApiKeys(db: Db, userId: string): Promise<number> {
  const gone = await db.delete(apiKeys).where(eq(apiKeys.userId, userId)).returning({ id: apiKeys.id });
  return gone.length;
}

/** last_used_at is written at most once a minute per key, not on every call. */
const TOUCH_EVERY_MS = 60_000;

/**
 * The holder of a live key and the key, or null; notes when the key was used. A key works only
 * while its holder is a member of its workspace (the join): leaving or being removed ends it.
 */
export async function userForApiKey(
  db: Db,
  key: string,
  now = new Date(),
): Promise<{ user: User; key: ApiKey } | null> {
  if (!looksLikeApiKey(key)) return null;
  const rows = await db
    .select({ key: apiKeys, user: users })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, apiKeys.workspaceId), eq(workspaceMembers.userId, apiKeys.userId)),
    )
    .where(eq(apiKeys.keyHash, hashToken(key)))
    .limit(1);
  const found = rows[0];
  if (!found) return null;
  if (!found.key.lastUsedAt || now.getTime() - found.key.lastUsedAt.getTime() >= TOUCH_EVERY_MS) {
    const stale = new Date(now.getTime() - TOUCH_EVERY_MS);
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(eq(apiKeys.id, found.key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, stale))),
      );
    found.key.lastUsedAt = now;
  }
  return { user: await withCurrentRank(db, found.user, now), key: found.key };
}
