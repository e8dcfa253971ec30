import { WorkspaceCode } from '../../../common/error-codes';
import type { WorkspaceRole } from '../../../common/record-states';
import type { WorkspaceAction } from '../../../common/workspace-permissions';
import { ApiError } from '../errors';
import { ACTION_ROLES } from '../../../common/workspace-permissions';

export const workspaceNotFound = () => new ApiError(WorkspaceCode.NOT_FOUND, 'errors.workspaces.notFound');

export const memberNotFound = () =>
  new ApiError(WorkspaceCode.MEMBER_NOT_FOUND, 'errors.workspaces.memberNotFound');

/** The same answer for every invitation link that does not work: nothing to learn by trying. */
export const invitationInvalid = () =>
  new ApiError(WorkspaceCode.INVITATION_INVALID, 'errors.workspaces.invitationInvalid');

/** A member whose role does not allow the action (a non-member gets the object's 404 instead). */
export function roleForbids(role: WorkspaceRole, action: WorkspaceAction) {
  return new ApiError(WorkspaceCode.FORBIDDEN, 'errors.workspaces.forbidden', {
    role,
    action,
    needed: ACTION_ROLES[action],
  });
}

export const personalWorkspace = () => new ApiError(WorkspaceCode.PERSONAL, 'errors.workspaces.personal');
