import { count, eq } from 'drizzle-orm';
import { randomCode } from '../../../common/random-code';
import { affiliateCodes, affiliates, type Affiliate, type User } from '../../db/schema';
import { ApiError } from '../errors';
import type { AffiliateDeps } from './deps';
import { AffiliateCode, ErrorCode } from '../../../common/error-codes';
import { notAffiliate } from './errors';

/** Codes people choose: 4–16 letters and digits; stored uppercase (links are case-insensitive). */
export const CODE_RE = /^[A-Z0-9]{4,16}$/;
export const GENERATED_CODE_LENGTH = 8;
export const MAX_CODES = 20;

export function normalizeCode(code: string): string {
  return code.trim().toUpperCase();
}

export async function codeAvailable(
  deps: AffiliateDeps,
  code: string,
): Promise<{ valid: boolean; available: boolean }> {
  const c = normalizeCode(code);
  if (!CODE_RE.test(c)) return { valid: false, available: false };
  const [row] = await deps.db.select().from(affiliateCodes).where(eq(affiliateCodes.code, c)).limit(1);
  return { valid: true, available: !row };
}

/** Inserts a chosen code, or a generated one (retrying the rare collision). */
async function insertCode(
  deps: AffiliateDeps,
  userId: string,
  wanted: string | undefined,
  label: string | null,
) {
  if (wanted) {
    const code = normalizeCode(wanted);
    if (!CODE_RE.test(code)) {
      throw new ApiError(ErrorCode.VALIDATION, 'errors.api.validation', {
        fields: { code: 'errors.affiliate.badCode' },
      });
    }
    const [row] = await deps.db
      .insert(affiliateCodes)
      .values({ code, userId, label })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new ApiError(AffiliateCode.CODE_TAKEN, 'errors.affiliate.codeTaken', { code });
    return row;
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const [row] = await deps.db
      .insert(affiliateCodes)
      .values({ code: randomCode(GENERATED_CODE_LENGTH), userId, label })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
  }
  throw new Error('could not generate a free referral code');
}

export interface ApplyInput {
  accept_terms: boolean;
  website?: string | null;
  audience?: string | null;
  channel?: string | null;
  code?: string | null;
}

/** Joins the programme: terms accepted, details kept, first code (chosen or generated). */
export async function applyAsAffiliate(deps: AffiliateDeps, user: User, input: ApplyInput) {
  if (!input.accept_terms) {
    throw new ApiError(AffiliateCode.TERMS_REQUIRED, 'errors.affiliate.termsRequired');
  }
  if (input.code) {
    const check = await codeAvailable(deps, input.code);
    if (check.valid && !check.available) {
      throw new ApiError(AffiliateCode.CODE_TAKEN, 'errors.affiliate.codeTaken', {
        code: normalizeCode(input.code),
      });
    }
  }
  const [created] = await deps.db
    .insert(affiliates)
    .values({
      userId: user.id,
      website: input.website || null,
      audience: input.audience || null,
      channel: input.channel || null,
      termsAcceptedAt: deps.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!created) throw new ApiError(AffiliateCode.ALREADY_AFFILIATE, 'errors.affiliate.alreadyAffiliate');
  try {
    await insertCode(deps, user.id, input.code ?? undefined, null);
  } catch (err) {
    // The code went to someone else in between: leave no half-made affiliate behind.
    await deps.db.delete(affiliates).where(eq(affiliates.userId, user.id));
    throw err;
  }
  return created;
}

/** The user's affiliate record, or null when they have not joined the programme. */
export async function findAffiliate(deps: AffiliateDeps, user: User): Promise<Affiliate | null> {
  const [row] = await deps.db.select().from(affiliates).where(eq(affiliates.userId, user.id)).limit(1);
  return row ?? null;
}

export async function ownAffiliate(deps: AffiliateDeps, user: User): Promise<Affiliate> {
  const row = await findAffiliate(deps, user);
  if (!row) throw notAffiliate();
  return row;
}

export async function addCode(
  deps: AffiliateDeps,
  user: User,
  input: { code?: string | null; label?: string | null },
) {
  await ownAffiliate(deps, user);
  const [row] = await deps.db
    .select({ n: count() })
    .from(affiliateCodes)
    .where(eq(affiliateCodes.userId, user.id));
  if ((row?.n ?? 0) >= MAX_CODES) {
    throw new ApiError(AffiliateCode.TOO_MANY_CODES, 'errors.affiliate.tooManyCodes', {
      limit: MAX_CODES,
    });
  }
  return insertCode(deps, user.id, input.code ?? undefined, input.label || null);
}

export async function setPayoutAccount(deps: AffiliateDeps, user: User, paypalEmail: string) {
  await ownAffiliate(deps, user);
  const [row] = await deps.db
    .update(affiliates)
    .set({ paypalEmail: paypalEmail.trim().toLowerCase() })
    .where(eq(affiliates.userId, user.id))
    .returning();
  return row!;
}
