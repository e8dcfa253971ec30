import { useTranslation } from 'react-i18next';
import type { WorkspaceJson } from '../../common/workspace-types';
import { can, type ActionObject, type WorkspaceAction } from '../../common/workspace-permissions';
import { api } from './api';
import { useViewer } from './use-viewer';

/** A workspace's name as people read it: team workspaces by name, the personal one translated. */
export function useWorkspaceName(): (w: Pick<WorkspaceJson, 'kind' | 'name'>) => string {
  const { t } = useTranslation();
  return (w) => (w.kind === 'personal' || !w.name ? t('workspaces.personal') : w.name);
}

/**
 * The workspace the pages work in, with the viewer's role, and whether that role may do an
 * action: the same `can` the server decides with, used here only to show the controls it allows.
 */
export function useCurrentWorkspace() {
  const viewer = useViewer();
  const workspace = viewer?.workspace ?? null;
  return {
    workspace,
    can: (action: WorkspaceAction, object: ActionObject = {}) =>
      !!workspace && can({ role: workspace.role }, action, { workspaceKind: workspace.kind, ...object }),
  };
}

/** Switches the pages to another workspace (the server checks the membership and sets the cookie). */
export async function switchWorkspace(id: string, then: string): Promise<void> {
  await api.put('/self-api/v1/workspaces/current', { workspace_id: id });
  window.location.assign(then);
}
