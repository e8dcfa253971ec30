// Seats of team workspaces through Stripe's protocol (decision 0043): the plan item's quantity.
// Checkout sets it, a subscription update or the Customer Portal changes it (Stripe prorates),
// and customer.subscription.updated brings it back into `subscriptions.quantity`.
import { and, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { BillingCode } from '../../../common/error-codes';
import { limitsFor } from '../../../common/ranks';
import { can } from '../../../common/workspace-permissions';
import type { DbOrTx } from '../../db/client';
import { workspaceMembers, workspaces, type User } from '../../db/schema';
import { ApiError } from '../errors';
import { roleForbids, workspaceNotFound } from '../workspaces/errors';
import { seatsTaken } from '../workspaces/seats';
import type { BillingDeps } from './deps';
import { notConfigured, stripeUnavailable } from './errors';
import { subscriptionFacts } from './stripe-objects';
import { liveSubscription } from './checkout';
import { saveSubscription } from './webhooks';

/**
 * The seats to buy for a team workspace the user owns: `asked` (default: the people its members
 * and open invitations and those of the user's other teams take), between that and the plan's `max`. Anything else is a translated 422.
 */
export async function seatsFor(
  db: DbOrTx,
  user: User,
  workspaceId: string,
  max: number,
  asked: number | undefined,
): Promise<number> {
  const [found] = await db
    .select({ role: workspaceMembers.role, kind: workspaces.kind, id: workspaces.id })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, user.id)));
  // Not a member: the same 404 as a workspace that does not exist.
  if (!found) throw workspaceNotFound();
  if (!can({ role: found.role }, 'workspace.billing') || found.kind !== 'team') {
    throw roleForbids(found.role, 'workspace.billing');
  }
  // The subscription is the buyer's: its seats cover the people of every team they hold the plan of.
  const min = Math.max(1, await seatsTaken(db, { workspace: found, holderId: user.id }, new Date()));
  const seats = asked ?? min;
  if (seats < min || seats > max) {
    throw new ApiError(BillingCode.SEATS_OUT_OF_RANGE, 'errors.billing.seatsOutOfRange', { min, max });
  }
  return seats;
}

/**
 * Changes the seats of the user's subscription for one of their team workspaces: the plan item's
 * quantity, prorated by Stripe (`create_prorations`: the difference is on the next invoice). The
 * answer is stored at once; the webhook that follows stores the same state again.
 */
export async function changeSeats(
  deps: BillingDeps,
  user: User,
  req: { workspaceId: string; seats: number },
): Promise<{ seats: number }> {
  const stripe = deps.config.stripe;
  if (!stripe) throw notConfigured();
  const sub = await liveSubscription(deps, user.id);
  if (!sub) throw new ApiError(BillingCode.NO_SUBSCRIPTION, 'errors.billing.noSubscription');
  const seats = await seatsFor(deps.db, user, req.workspaceId, limitsFor(sub.rank).seats, req.seats);
  let updated: Stripe.Subscription;
  try {
    const current = subscriptionFacts(await stripe.subscriptions.retrieve(sub.id));
    if (!current.itemId) throw new Error('subscription without an item');
    updated = await stripe.subscriptions.update(sub.id, {
      items: [{ id: current.itemId, quantity: seats }],
      proration_behavior: 'create_prorations',
    });
  } catch (err) {
    deps.logger.error({ err: (err as Error).message, what: 'subscriptions.update' }, 'stripe call failed');
    throw stripeUnavailable();
  }
  const facts = subscriptionFacts(updated);
  await deps.db.transaction((tx) =>
    saveSubscription(deps, tx, facts, Math.floor(deps.now().getTime() / 1000), user.id),
  );
  return { seats: facts.quantity };
}
