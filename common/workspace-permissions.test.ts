import { describe, expect, it } from 'vitest';
import { WORKSPACE_ROLES, type WorkspaceRole } from './record-states';
import { ACTION_ROLES, actionsOf, can, invitableRoles, type WorkspaceAction } from './workspace-permissions';

const m = (role: WorkspaceRole) => ({ role });

describe('can', () => {
  it('refuses everything to a non-member and to an unknown role', () => {
    for (const action of Object.keys(ACTION_ROLES) as WorkspaceAction[]) {
      expect(can(null, action, { author: true, newRole: 'viewer', targetRole: 'viewer' })).toBe(false);
      expect(can({ role: 'superuser' as never }, action)).toBe(false);
    }
  });

  // The plain actions: allowed exactly from their lowest role up.
  const plain: [WorkspaceAction, WorkspaceRole][] = [
    ['transcript.read', 'viewer'],
    ['transcript.export', 'viewer'],
    ['transcript.comment', 'viewer'],
    ['transcript.create', 'editor'],
    ['transcript.edit', 'editor'],
    ['transcript.delete', 'editor'],
    ['transcript.share', 'editor'],
    ['transcript.run', 'editor'],
    ['folder.manage', 'editor'],
    ['webhook.manage', 'admin'],
    ['workspace.rename', 'admin'],
    ['workspace.billing', 'owner'],
  ];
  it.each(plain)('%s needs at least %s', (action, least) => {
    const allowed = WORKSPACE_ROLES.filter((r) => can(m(r), action, { workspaceKind: 'team' }));
    expect(allowed).toEqual(WORKSPACE_ROLES.slice(WORKSPACE_ROLES.indexOf(least)));
  });

  it('lets nobody change their own role, and only owners touch ownership', () => {
    for (const role of WORKSPACE_ROLES) {
      for (const newRole of WORKSPACE_ROLES) {
        expect(can(m(role), 'member.role', { self: true, targetRole: role, newRole, owners: 2 })).toBe(false);
      }
    }
    const change = (role: WorkspaceRole, targetRole: WorkspaceRole, newRole: WorkspaceRole, owners = 1) =>
      can(m(role), 'member.role', { targetRole, newRole, owners, workspaceKind: 'team' });
    expect(change('admin', 'viewer', 'editor')).toBe(true);
    expect(change('admin', 'editor', 'admin')).toBe(true);
    expect(change('admin', 'editor', 'owner')).toBe(false);
    expect(change('admin', 'owner', 'viewer', 3)).toBe(false);
    expect(change('editor', 'viewer', 'editor')).toBe(false);
    expect(change('owner', 'admin', 'owner')).toBe(true);
    // The last owner stays an owner; one of two may be stepped down by the other.
    expect(change('owner', 'owner', 'admin', 1)).toBe(false);
    expect(change('owner', 'owner', 'admin', 2)).toBe(true);
  });

  it('keeps at least one owner and a personal workspace’s one member', () => {
    expect(can(m('owner'), 'workspace.leave', { owners: 1, workspaceKind: 'team' })).toBe(false);
    expect(can(m('owner'), 'workspace.leave', { owners: 2, workspaceKind: 'team' })).toBe(true);
    expect(can(m('viewer'), 'workspace.leave', { owners: 1, workspaceKind: 'team' })).toBe(true);
    expect(can(m('owner'), 'workspace.leave', { owners: 2, workspaceKind: 'personal' })).toBe(false);
    expect(can(m('admin'), 'member.remove', { targetRole: 'owner', owners: 2 })).toBe(false);
    expect(can(m('owner'), 'member.remove', { targetRole: 'owner', owners: 1 })).toBe(false);
    expect(can(m('owner'), 'member.remove', { targetRole: 'owner', owners: 2 })).toBe(true);
    expect(can(m('admin'), 'member.remove', { targetRole: 'admin' })).toBe(true);
    expect(can(m('admin'), 'member.remove', { targetRole: 'admin', self: true })).toBe(false);
    expect(can(m('owner'), 'workspace.delete', { workspaceKind: 'personal' })).toBe(false);
    expect(can(m('owner'), 'workspace.delete', { workspaceKind: 'team' })).toBe(true);
    expect(can(m('owner'), 'member.invite', { workspaceKind: 'personal', newRole: 'viewer' })).toBe(false);
  });

  it('invites with a role no higher than the inviter’s, never owner', () => {
    expect(can(m('admin'), 'member.invite', { newRole: 'admin' })).toBe(true);
    expect(can(m('admin'), 'member.invite', { newRole: 'owner' })).toBe(false);
    expect(can(m('owner'), 'member.invite', { newRole: 'owner' })).toBe(false);
    expect(can(m('editor'), 'member.invite', { newRole: 'viewer' })).toBe(false);
    expect(can(m('admin'), 'member.invite', {})).toBe(false);
    expect(invitableRoles('owner')).toEqual(['viewer', 'editor', 'admin']);
    expect(invitableRoles('admin')).toEqual(['viewer', 'editor', 'admin']);
    expect(invitableRoles('editor')).toEqual([]);
  });

  it('lets a comment’s author edit it, an admin delete it and an editor resolve it', () => {
    expect(can(m('viewer'), 'comment.edit', { author: true })).toBe(true);
    expect(can(m('owner'), 'comment.edit', { author: false })).toBe(false);
    expect(can(m('viewer'), 'comment.delete', { author: false })).toBe(false);
    expect(can(m('admin'), 'comment.delete', { author: false })).toBe(true);
    expect(can(m('viewer'), 'comment.resolve', { author: false })).toBe(false);
    expect(can(m('viewer'), 'comment.resolve', { author: true })).toBe(true);
    expect(can(m('editor'), 'comment.resolve', { author: false })).toBe(true);
  });

  it('lists what a role may do', () => {
    expect(actionsOf('viewer')).toContain('transcript.export');
    expect(actionsOf('viewer')).not.toContain('transcript.edit');
    expect(actionsOf('owner')).toEqual(Object.keys(ACTION_ROLES));
    expect(actionsOf(null)).toEqual([]);
  });
});
