import { and, desc, eq, gt } from 'drizzle-orm';
import {
  users,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
  type User,
  type Workspace,
  type WorkspaceInvitation,
} from '../../db/schema';
import { ErrorCode, WorkspaceCode } from '../../../common/error-codes';
import { cheapestRankWithSeats, standardRank } from '../../../common/ranks';
import { isLocale, localizePath, type Locale } from '../../../common/locales';
import type { InvitableRole } from '../../../common/record-states';
import type {
  InvitationJson,
  InvitationPreviewJson,
  PendingInvitationJson,
} from '../../../common/workspace-types';
import { ApiError } from '../errors';
import { hashToken, newToken } from '../auth/tokens';
import type { Actor } from './actor';
import { assertCan, membershipOf } from './access';
import type { WorkspaceDeps } from './deps';
import { invitationInvalid, personalWorkspace, workspaceNotFound } from './errors';
import { renderInvitationMail } from './invitation-mail';
import { workspacePlan } from './plan';
import { peopleOnSeats } from './seats';

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
/** A fresh link for the same address waits this long after the last one (no mail bombs). */
export const RESEND_AFTER_MS = 60 * 1000;

const inviterName = (u: { name: string | null; email: string } | null) =>
  u ? (u.name ? `${u.name} (${u.email})` : u.email) : '';

async function adminOf(deps: WorkspaceDeps, actor: Actor, workspaceId: string) {
  const found = await membershipOf(deps.db, actor, workspaceId);
  if (!found) throw workspaceNotFound();
  if (found.workspace.kind === 'personal') throw personalWorkspace();
  return found;
}

/** The link in the mail: the invitation page in the invitee's language, with the token. */
function invitationLink(origin: string, lang: Locale, token: string) {
  return `${origin}${localizePath('/invitation', lang)}?token=${token}`;
}

async function sendInvitation(
  deps: WorkspaceDeps,
  input: {
    workspace: Workspace;
    inviter: User;
    email: string;
    role: InvitableRole;
    lang: Locale;
    token: string;
    origin: string;
  },
) {
  const mail = renderInvitationMail({
    lang: input.lang,
    appName: deps.appName,
    inviter: inviterName(input.inviter),
    workspace: input.workspace.name ?? '',
    role: input.role,
    link: invitationLink(input.origin, input.lang, input.token),
  });
  await deps.sendMail({ to: input.email, ...mail });
}

export interface InviteInput {
  email: string;
  role: InvitableRole;
  /** The mail's language when the address has no account (the inviter's page language). */
  language: Locale;
  origin: string;
}

/**
 * Invites an address. Refused: by a role that may not invite or with a role above the inviter's;
 * to a personal workspace; for someone already a member; past the plan's seats (people counted
 * once over the plan's teams, open invitations included), with the way to more seats. An open invitation to the same address is
 * replaced (its link stops working).
 */
export async function inviteMember(
  deps: WorkspaceDeps,
  actor: Actor,
  workspaceId: string,
  input: InviteInput,
) {
  const { workspace, role } = await adminOf(deps, actor, workspaceId);
  assertCan(role, 'member.invite', { workspaceKind: workspace.kind, newRole: input.role });
  const email = input.email.trim().toLowerCase();
  const [existing] = await deps.db.select().from(users).where(eq(users.email, email)).limit(1);
  if (existing) {
    const [member] = await deps.db
      .select({ role: workspaceMembers.role })
      .from(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, existing.id)));
    if (member) throw new ApiError(WorkspaceCode.ALREADY_MEMBER, 'errors.workspaces.alreadyMember');
  }
  const now = deps.now();
  const [open] = await deps.db
    .select()
    .from(workspaceInvitations)
    .where(
      and(
        eq(workspaceInvitations.workspaceId, workspaceId),
        eq(workspaceInvitations.email, email),
        eq(workspaceInvitations.status, 'pending'),
      ),
    );
  if (open && now.getTime() - open.createdAt.getTime() < RESEND_AFTER_MS) {
    throw new ApiError(ErrorCode.RATE_LIMITED, 'errors.workspaces.resendWait', {
      retry_after: Math.ceil((RESEND_AFTER_MS - (now.getTime() - open.createdAt.getTime())) / 1000),
    });
  }
  const plan = await workspacePlan(deps.db, workspace);
  // Seats are people over all the plan's teams: someone already on one (a member of another
  // team, the open invitation being replaced) takes no new seat.
  const people = await peopleOnSeats(deps.db, { workspace, holderId: plan.holder?.id ?? null }, now);
  if (!people.has(email) && people.size >= plan.seats) {
    const from = standardRank(plan.rankName);
    // The locked-feature hint: seats to add on this plan (a subscription update), else the plan to move to.
    throw new ApiError(
      WorkspaceCode.SEATS_FULL,
      plan.canAddSeats ? 'errors.workspaces.seatsFullAddSeats' : 'errors.workspaces.seatsFull',
      {
        seats: plan.seats,
        count: plan.seats,
        add_seats: plan.canAddSeats,
        // Seats bought through Stripe: the page's seats control (or the Portal) is the way to more.
        billed: plan.seatsBilled,
        rank:
          !plan.canAddSeats && from && from !== 'Enterprise' ? cheapestRankWithSeats(plan.seats, from) : null,
      },
    );
  }
  const lang: Locale = existing && isLocale(existing.language) ? existing.language : input.language;
  const token = newToken();
  const invitation = await deps.db.transaction(async (tx) => {
    if (open) {
      await tx
        .update(workspaceInvitations)
        .set({ status: 'revoked', answeredAt: now })
        .where(and(eq(workspaceInvitations.id, open.id), eq(workspaceInvitations.status, 'pending')));
    }
    const [row] = await tx
      .insert(workspaceInvitations)
      .values({
        workspaceId,
        email,
        role: input.role,
        language: lang,
        tokenHash: hashToken(token),
        invitedBy: actor.user.id,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        createdAt: now,
      })
      .returning();
    return row!;
  });
  await sendInvitation(deps, {
    workspace,
    inviter: actor.user,
    email,
    role: input.role,
    lang,
    token,
    origin: input.origin,
  });
  return invitation;
}

/** Sends an open invitation again with a new link (the old one stops working). */
export async function resendInvitation(
  deps: WorkspaceDeps,
  actor: Actor,
  workspaceId: string,
  invitationId: string,
  origin: string,
) {
  const { workspace, role } = await adminOf(deps, actor, workspaceId);
  const [open] = await deps.db
    .select()
    .from(workspaceInvitations)
    .where(
      and(
        eq(workspaceInvitations.id, invitationId),
        eq(workspaceInvitations.workspaceId, workspaceId),
        eq(workspaceInvitations.status, 'pending'),
      ),
    );
  if (!open) throw invitationInvalid();
  assertCan(role, 'member.invite', { workspaceKind: workspace.kind, newRole: open.role });
  return inviteMember(deps, actor, workspaceId, {
    email: open.email,
    role: open.role,
    language: isLocale(open.language) ? open.language : 'en',
    origin,
  });
}

export async function revokeInvitation(
  deps: WorkspaceDeps,
  actor: Actor,
  workspaceId: string,
  invitationId: string,
) {
  const { workspace, role } = await adminOf(deps, actor, workspaceId);
  const [open] = await deps.db
    .select()
    .from(workspaceInvitations)
    .where(and(eq(workspaceInvitations.id, invitationId), eq(workspaceInvitations.workspaceId, workspaceId)));
  if (!open || open.status !== 'pending') throw invitationInvalid();
  assertCan(role, 'member.invite', { workspaceKind: workspace.kind, newRole: open.role });
  await deps.db
    .update(workspaceInvitations)
    .set({ status: 'revoked', answeredAt: deps.now() })
    .where(and(eq(workspaceInvitations.id, invitationId), eq(workspaceInvitations.status, 'pending')));
}

/** A workspace's invitations waiting for an answer (expired ones too, marked), newest first. */
export async function listInvitations(
  deps: WorkspaceDeps,
  actor: Actor,
  workspaceId: string,
): Promise<InvitationJson[]> {
  const { workspace, role } = await adminOf(deps, actor, workspaceId);
  assertCan(role, 'member.invite', { workspaceKind: workspace.kind, newRole: 'viewer' });
  const rows = await deps.db
    .select({ invitation: workspaceInvitations, inviter: { name: users.name, email: users.email } })
    .from(workspaceInvitations)
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(and(eq(workspaceInvitations.workspaceId, workspaceId), eq(workspaceInvitations.status, 'pending')))
    .orderBy(desc(workspaceInvitations.createdAt))
    .limit(200);
  const now = deps.now();
  return rows.map(({ invitation: i, inviter }) => ({
    id: i.id,
    email: i.email,
    role: i.role,
    status: i.status,
    expired: i.expiresAt <= now,
    invited_by: inviter?.email ? { name: inviter.name, email: inviter.email } : null,
    created_at: i.createdAt.toISOString(),
    expires_at: i.expiresAt.toISOString(),
  }));
}

/** An open, unexpired invitation with its workspace and inviter, by the link's token or by id. */
async function openInvitation(deps: WorkspaceDeps, by: { token: string } | { id: string }) {
  const now = deps.now();
  if ('token' in by && (by.token.length < 20 || by.token.length > 100)) return null;
  const [row] = await deps.db
    .select({
      invitation: workspaceInvitations,
      workspace: workspaces,
      inviter: { name: users.name, email: users.email },
    })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(
      and(
        'token' in by
          ? eq(workspaceInvitations.tokenHash, hashToken(by.token))
          : eq(workspaceInvitations.id, by.id),
        eq(workspaceInvitations.status, 'pending'),
        gt(workspaceInvitations.expiresAt, now),
      ),
    )
    .limit(1);
  return row ?? null;
}

function previewJson(row: NonNullable<Awaited<ReturnType<typeof openInvitation>>>): InvitationPreviewJson {
  return {
    workspace: { id: row.workspace.id, name: row.workspace.name },
    email: row.invitation.email,
    role: row.invitation.role,
    invited_by: row.inviter?.email ? { name: row.inviter.name, email: row.inviter.email } : null,
    expires_at: row.invitation.expiresAt.toISOString(),
  };
}

/** What an invitation link shows, to whoever holds it; every link that fails gives the same 404. */
export async function previewInvitation(deps: WorkspaceDeps, token: string): Promise<InvitationPreviewJson> {
  const row = await openInvitation(deps, { token });
  if (!row) throw invitationInvalid();
  return previewJson(row);
}

/** The invitations waiting for this account: addressed to its verified address. */
export async function invitationsFor(deps: WorkspaceDeps, user: User): Promise<PendingInvitationJson[]> {
  if (!user.emailVerified) return [];
  const rows = await deps.db
    .select({
      invitation: workspaceInvitations,
      workspace: workspaces,
      inviter: { name: users.name, email: users.email },
    })
    .from(workspaceInvitations)
    .innerJoin(workspaces, eq(workspaces.id, workspaceInvitations.workspaceId))
    .leftJoin(users, eq(users.id, workspaceInvitations.invitedBy))
    .where(
      and(
        eq(workspaceInvitations.email, user.email),
        eq(workspaceInvitations.status, 'pending'),
        gt(workspaceInvitations.expiresAt, deps.now()),
      ),
    )
    .orderBy(desc(workspaceInvitations.createdAt))
    .limit(50);
  return rows.map((r) => ({ id: r.invitation.id, ...previewJson(r) }));
}

/**
 * Answers an invitation, once. Only the account whose verified address was invited may: any
 * other gets 403 and the invitation stays open for its addressee. Accepting makes the account
 * a member with the invited role (seats are checked again: the plan may have shrunk).
 */
export async function answerInvitation(
  deps: WorkspaceDeps,
  user: User,
  by: { token: string } | { id: string },
  answer: 'accepted' | 'declined',
): Promise<{ workspace: Workspace; invitation: WorkspaceInvitation }> {
  const row = await openInvitation(deps, by);
  if (!row) throw invitationInvalid();
  if (!user.emailVerified || user.email !== row.invitation.email) {
    throw new ApiError(WorkspaceCode.INVITATION_NOT_YOURS, 'errors.workspaces.invitationNotYours', {
      email: row.invitation.email,
    });
  }
  const now = deps.now();
  const { invitation, workspace } = row;
  if (answer === 'accepted') {
    const plan = await workspacePlan(deps.db, workspace);
    // Members of the plan's teams; a member of another of them takes no new seat.
    const members = await peopleOnSeats(deps.db, { workspace, holderId: plan.holder?.id ?? null }, now, {
      invitations: false,
    });
    if (!members.has(user.email.toLowerCase()) && members.size >= plan.seats) {
      throw new ApiError(WorkspaceCode.SEATS_FULL, 'errors.workspaces.seatsFullJoin', {
        seats: plan.seats,
        count: plan.seats,
      });
    }
  }
  const answered = await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(workspaceInvitations)
      .set({ status: answer, answeredAt: now, answeredBy: user.id })
      .where(
        and(
          eq(workspaceInvitations.id, invitation.id),
          eq(workspaceInvitations.status, 'pending'),
          gt(workspaceInvitations.expiresAt, now),
        ),
      )
      .returning();
    // Another click (or another tab) answered it first.
    if (!updated) throw invitationInvalid();
    if (answer === 'accepted') {
      await tx
        .insert(workspaceMembers)
        .values({
          workspaceId: workspace.id,
          userId: user.id,
          role: invitation.role,
          invitedBy: invitation.invitedBy,
          createdAt: now,
        })
        .onConflictDoNothing();
    }
    return updated;
  });
  if (answer === 'accepted') {
    await deps.memberAdded?.({ workspaceId: workspace.id, userId: user.id, role: invitation.role });
  }
  return { workspace, invitation: answered };
}
