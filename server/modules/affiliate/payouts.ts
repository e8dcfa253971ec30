import { and, desc, eq, inArray, isNull, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  affiliates,
  commissions,
  settlements,
  users,
  type Commission,
  type Settlement,
  type User,
} from '../../db/schema';
import { ApiError } from '../errors';
import type { AffiliateDeps } from './deps';
import { AffiliateCode } from '../../../common/error-codes';
import { notAffiliate } from './errors';

export type CommissionState = 'pending' | 'available' | 'in_payout' | 'paid';

export interface Balance {
  currency: string;
  pending: number;
  available: number;
  in_payout: number;
  paid: number;
}

/** A commission row's state now: from its payout, else from the end of its holding period. */
export function stateOf(row: Commission, payout: Settlement | undefined, now: Date): CommissionState {
  if (row.settlementId && payout?.status === 'paid') return 'paid';
  if (row.settlementId) return 'in_payout';
  return row.availableAt <= now ? 'available' : 'pending';
}

/** Balances per currency, from the commission rows (nothing is stored twice). */
export async function balances(db: Db, affiliateId: string, now: Date): Promise<Balance[]> {
  const rows = await db.select().from(commissions).where(eq(commissions.affiliateId, affiliateId));
  const payouts = new Map(
    (await db.select().from(settlements).where(eq(settlements.affiliateId, affiliateId))).map((s) => [
      s.id,
      s,
    ]),
  );
  const out = new Map<string, Balance>();
  for (const row of rows) {
    const b = out.get(row.currency) ?? {
      currency: row.currency,
      pending: 0,
      available: 0,
      in_payout: 0,
      paid: 0,
    };
    b[stateOf(row, row.settlementId ? payouts.get(row.settlementId) : undefined, now)] += row.amount;
    out.set(row.currency, b);
  }
  return [...out.values()].sort((a, b) => b.available - a.available);
}

/**
 * Requests a payout of the whole available balance in one currency. One transaction holds the
 * affiliate's row locked, so two requests at once cannot both take the same commissions, and a
 * unique index allows one open request per currency.
 */
export async function requestPayout(deps: AffiliateDeps, user: User, currency?: string): Promise<Settlement> {
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const [affiliate] = await tx
      .select()
      .from(affiliates)
      .where(eq(affiliates.userId, user.id))
      .for('update');
    if (!affiliate) throw notAffiliate();
    if (!affiliate.paypalEmail) {
      throw new ApiError(AffiliateCode.NO_PAYOUT_ACCOUNT, 'errors.affiliate.noPayoutAccount');
    }
    const open = await tx
      .select({ id: commissions.id, amount: commissions.amount, currency: commissions.currency })
      .from(commissions)
      .where(
        and(
          eq(commissions.affiliateId, user.id),
          isNull(commissions.settlementId),
          lte(commissions.availableAt, now),
        ),
      );
    const totals = new Map<string, number>();
    for (const r of open) totals.set(r.currency, (totals.get(r.currency) ?? 0) + r.amount);
    const chosen = currency?.toLowerCase() ?? [...totals].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'usd';
    const amount = totals.get(chosen) ?? 0;
    if (amount < deps.config.minPayout) {
      throw new ApiError(AffiliateCode.BELOW_MINIMUM, 'errors.affiliate.belowMinimum', {
        minimum: deps.config.minPayout,
        available: amount,
        currency: chosen,
      });
    }
    const [openRequest] = await tx
      .select({ id: settlements.id })
      .from(settlements)
      .where(
        and(
          eq(settlements.affiliateId, user.id),
          eq(settlements.currency, chosen),
          eq(settlements.status, 'requested'),
        ),
      );
    if (openRequest) throw new ApiError(AffiliateCode.PAYOUT_OPEN, 'errors.affiliate.payoutOpen');
    const [payout] = await tx
      .insert(settlements)
      .values({
        affiliateId: user.id,
        amount,
        currency: chosen,
        status: 'requested',
        paypalEmail: affiliate.paypalEmail,
        requestedAt: now,
      })
      .returning();
    await tx
      .update(commissions)
      .set({ settlementId: payout!.id })
      .where(
        inArray(
          commissions.id,
          open.filter((r) => r.currency === chosen).map((r) => r.id),
        ),
      );
    return payout!;
  });
}

export async function listPayouts(db: Db, affiliateId: string): Promise<Settlement[]> {
  return db
    .select()
    .from(settlements)
    .where(eq(settlements.affiliateId, affiliateId))
    .orderBy(desc(settlements.requestedAt));
}

export class PayoutError extends Error {}

/** Operator: the PayPal payment was sent. Only an open request can be marked, once. */
export async function markPayoutPaid(
  db: Db,
  id: string,
  transactionId: string,
  now: Date,
): Promise<Settlement> {
  if (!/^[\w-]{4,64}$/.test(transactionId))
    throw new PayoutError('A PayPal transaction id is 4-64 letters, digits, - or _');
  const [row] = await db
    .update(settlements)
    .set({ status: 'paid', paypalTransactionId: transactionId, decidedAt: now })
    .where(and(eq(settlements.id, id), eq(settlements.status, 'requested')))
    .returning();
  if (!row) throw new PayoutError(`No open payout request ${id}`);
  return row;
}

/** Operator: refuse a request; its commissions become available again. */
export async function rejectPayout(db: Db, id: string, reason: string, now: Date): Promise<Settlement> {
  if (!reason.trim()) throw new PayoutError('Give the affiliate a reason');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(settlements)
      .set({ status: 'rejected', reason: reason.trim(), decidedAt: now })
      .where(and(eq(settlements.id, id), eq(settlements.status, 'requested')))
      .returning();
    if (!row) throw new PayoutError(`No open payout request ${id}`);
    await tx.update(commissions).set({ settlementId: null }).where(eq(commissions.settlementId, id));
    return row;
  });
}

/** Operator: open payout requests with the affiliate's e-mail, oldest first. */
export async function openPayouts(db: Db) {
  return db
    .select({ payout: settlements, email: users.email })
    .from(settlements)
    .innerJoin(users, eq(users.id, settlements.affiliateId))
    .where(eq(settlements.status, 'requested'))
    .orderBy(settlements.requestedAt);
}
