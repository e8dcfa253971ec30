import type { InvitableRole, InvitationStatus, WorkspaceKind, WorkspaceRole } from './record-states';

// The API's shapes for workspaces, members and invitations (docs/decisions/0027-team-workspaces.md).

export interface WorkspaceJson {
  id: string;
  kind: WorkspaceKind;
  /** null for a personal workspace: pages call it "Personal" in their language. */
  name: string | null;
  /** The caller's role in it. */
  role: WorkspaceRole;
  created_at: string;
  members?: number;
}

export interface WorkspaceDetailJson extends WorkspaceJson {
  members: number;
  /** People on the plan's seats over its teams (decision 0044), against the seats paid for. */
  seats: WorkspaceSeatsJson;
  rank_name: string;
}

export interface WorkspaceSeatsJson {
  /** Members and open invitations, each person once over every team the plan pays for. */
  taken: number;
  /** The seats paid for (a Stripe subscription's quantity, else the plan's). */
  total: number;
  /** The most seats the plan has. */
  max: number;
  /**
   * How the viewer may change them: 'update' — the viewer holds the plan's Stripe subscription
   * (POST /billing/seats, or the Customer Portal); 'plans' — an owner whose seats come with the
   * plan (a bigger plan has more); null — nothing for this viewer to change.
   */
  change: 'update' | 'plans' | null;
}

export interface MemberJson {
  user_id: string;
  email: string;
  name: string | null;
  role: WorkspaceRole;
  joined_at: string;
}

export interface InvitationJson {
  id: string;
  email: string;
  role: InvitableRole;
  status: InvitationStatus;
  expired: boolean;
  invited_by: { name: string | null; email: string } | null;
  created_at: string;
  expires_at: string;
}

/** What an invitation link shows before it is answered (to whoever holds the link). */
export interface InvitationPreviewJson {
  workspace: { id: string; name: string | null };
  email: string;
  role: InvitableRole;
  invited_by: { name: string | null; email: string } | null;
  expires_at: string;
}

/** An invitation waiting for the signed-in account. */
export interface PendingInvitationJson extends InvitationPreviewJson {
  id: string;
}

/** Which workspace the viewer works in, and the others they can switch to (the header's switcher). */
export interface ViewerWorkspaces {
  current: WorkspaceJson;
  all: WorkspaceJson[];
}
