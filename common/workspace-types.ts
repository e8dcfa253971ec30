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
  /** Members plus pending invitations, against the plan's seats. */
  seats: { taken: number; total: number };
  rank_name: string;
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
