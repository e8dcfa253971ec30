// What a member of a workspace may do (docs/decisions/0027-team-workspaces.md): one pure
// function, `can`, used by every server check after the object was found through the caller's
// membership, and by the pages to show only the controls a role can use.
import { WORKSPACE_ROLES, type WorkspaceKind, type WorkspaceRole } from './record-states';

/** The lowest role that may do each action (object rules below may refuse more). */
export const ACTION_ROLES = {
  // The workspace itself.
  'workspace.read': 'viewer',
  'workspace.rename': 'admin',
  'workspace.delete': 'owner',
  'workspace.billing': 'owner',
  'workspace.transfer': 'owner',
  'workspace.leave': 'viewer',
  'workspace.usage': 'viewer',
  'webhook.manage': 'admin',
  /** A member's own API keys, which act with the member's role. */
  'apikey.manage': 'viewer',
  // Its members.
  'member.list': 'viewer',
  'member.invite': 'admin',
  'member.role': 'admin',
  'member.remove': 'admin',
  // Transcripts and folders.
  'transcript.read': 'viewer',
  'transcript.export': 'viewer',
  'transcript.comment': 'viewer',
  'transcript.create': 'editor',
  'transcript.edit': 'editor',
  'transcript.move': 'editor',
  'transcript.delete': 'editor',
  /** Retry, cancel, transcribe again. */
  'transcript.run': 'editor',
  'transcript.share': 'editor',
  /** Ask for a summary, chapters or a template's output (docs/decisions/0033-insights.md). */
  'transcript.ai': 'editor',
  /** Write, edit and delete the workspace's AI templates (decision 0037). */
  'template.manage': 'editor',
  /** Ask questions about a transcript: reading, with the workspace's AI actions. */
  'transcript.ask': 'viewer',
  'folder.read': 'viewer',
  'folder.manage': 'editor',
  // Comments (the author's own rules are in `can`).
  'comment.edit': 'viewer',
  'comment.delete': 'viewer',
  'comment.resolve': 'viewer',
} as const satisfies Record<string, WorkspaceRole>;

export type WorkspaceAction = keyof typeof ACTION_ROLES;

/** The member asking: their role in the object's workspace (null: not a member). */
export interface MemberRole {
  role: WorkspaceRole;
}

/** What some actions need to know about their object. */
export interface ActionObject {
  /** The workspace's kind: a personal workspace takes no members and cannot be left or deleted. */
  workspaceKind?: WorkspaceKind;
  /** member.role / member.remove: the other member's current role, and whether it is the asker. */
  targetRole?: WorkspaceRole;
  self?: boolean;
  /** member.role: the role asked for; member.invite: the invitation's role. */
  newRole?: WorkspaceRole;
  /** workspace.leave, member.role, member.remove: how many owners the workspace has. */
  owners?: number;
  /** comment.*: whether the asker wrote it. */
  author?: boolean;
}

const rank = (role: WorkspaceRole) => WORKSPACE_ROLES.indexOf(role);

/** Whether `role` is at least `least`. */
export function atLeast(role: WorkspaceRole, least: WorkspaceRole): boolean {
  return rank(role) >= rank(least);
}

/**
 * Whether `member` may do `action` (to `object`). Not a member: never. Then the action's lowest
 * role, then the rules that depend on the object:
 * - nobody changes their own role; an admin never gives or takes ownership nor touches an owner;
 * - an invitation's role is never owner nor above the inviter's;
 * - a workspace keeps at least one owner; a personal workspace keeps its one member;
 * - a comment is edited by its author only, deleted by its author or an admin, resolved by its
 *   author or an editor.
 */
export function can(
  member: MemberRole | null | undefined,
  action: WorkspaceAction,
  object: ActionObject = {},
): boolean {
  if (!member || !WORKSPACE_ROLES.includes(member.role)) return false;
  const role = member.role;
  const personal = object.workspaceKind === 'personal';
  if (!atLeast(role, ACTION_ROLES[action])) return false;
  switch (action) {
    case 'member.invite':
      if (personal) return false;
      return !!object.newRole && object.newRole !== 'owner' && atLeast(role, object.newRole);
    case 'member.role': {
      if (personal || object.self || !object.targetRole || !object.newRole) return false;
      if (role !== 'owner' && (object.targetRole === 'owner' || object.newRole === 'owner')) return false;
      // An owner stepping another owner down must leave one.
      if (object.targetRole === 'owner' && object.newRole !== 'owner') return (object.owners ?? 0) > 1;
      return true;
    }
    case 'member.remove':
      if (personal || object.self || !object.targetRole) return false;
      if (object.targetRole === 'owner') return role === 'owner' && (object.owners ?? 0) > 1;
      return true;
    case 'workspace.leave':
      if (personal) return false;
      return role !== 'owner' || (object.owners ?? 0) > 1;
    case 'workspace.delete':
    case 'workspace.transfer':
      return !personal;
    case 'comment.edit':
      return !!object.author;
    case 'comment.delete':
      return !!object.author || atLeast(role, 'admin');
    case 'comment.resolve':
      return !!object.author || atLeast(role, 'editor');
    default:
      return true;
  }
}

/** Every action a role may do in general (objects aside): what the pages use to show controls. */
export function actionsOf(role: WorkspaceRole | null | undefined): WorkspaceAction[] {
  if (!role) return [];
  return (Object.keys(ACTION_ROLES) as WorkspaceAction[]).filter((a) => atLeast(role, ACTION_ROLES[a]));
}

/** The roles `role` may give when inviting (lowest first). */
export function invitableRoles(role: WorkspaceRole): WorkspaceRole[] {
  return WORKSPACE_ROLES.filter((r) => r !== 'owner' && atLeast(role, r) && atLeast(role, 'admin'));
}
