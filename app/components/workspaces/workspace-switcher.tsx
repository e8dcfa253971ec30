import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Viewer } from '../../../common/app-context';
import { useLocalePath } from '../../lib/use-locale';
import { switchWorkspace, useWorkspaceName } from '../../lib/use-workspace';

/** The header's workspace menu: the current workspace, the others to switch to, settings, a new team. */
export function WorkspaceSwitcher({ viewer }: { viewer: Viewer }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const nameOf = useWorkspaceName();
  const current = viewer.workspace;
  return (
    <details className="relative" data-testid="workspace-switcher">
      <summary
        className="flex h-9 max-w-[7rem] cursor-pointer list-none items-center gap-1.5 rounded-md border border-slate-200 px-2 text-sm font-medium text-slate-800 hover:bg-slate-50 sm:max-w-[13rem] sm:px-2.5"
        aria-label={t('workspaces.switcher.label')}
        title={nameOf(current)}
      >
        <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-slate-500" aria-hidden>
          {current.kind === 'personal' ? (
            <path fill="currentColor" d="M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0H3Z" />
          ) : (
            <path
              fill="currentColor"
              d="M7 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7 0a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5ZM1 17a6 6 0 0 1 12 0H1Zm13 0a7.9 7.9 0 0 0-1.8-5A5 5 0 0 1 19 17h-5Z"
            />
          )}
        </svg>
        <span className="truncate" data-testid="workspace-current">
          {nameOf(current)}
        </span>
        <svg viewBox="0 0 20 20" className="h-3.5 w-3.5 shrink-0 text-slate-400" aria-hidden>
          <path fill="currentColor" d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.5" />
        </svg>
      </summary>
      <div className="absolute right-0 z-50 mt-2 w-64 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-1 shadow-lg">
        <p className="px-3 pb-1 pt-2 text-xs font-semibold uppercase tracking-wide text-slate-500">
          {t('workspaces.switcher.heading')}
        </p>
        <ul>
          {viewer.workspaces.map((w) => (
            <li key={w.id}>
              <button
                type="button"
                className="flex w-full items-center justify-between gap-2 rounded-md px-3 py-2 text-left text-sm hover:bg-slate-50"
                aria-current={w.id === current.id ? 'true' : undefined}
                data-testid="workspace-option"
                onClick={() => void switchWorkspace(w.id, lp('/dashboard'))}
              >
                <span className="min-w-0">
                  <span className="block truncate font-medium text-slate-900">{nameOf(w)}</span>
                  <span className="block text-xs text-slate-500">{t(`workspaces.roles.${w.role}`)}</span>
                </span>
                {w.id === current.id ? (
                  <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-brand-600" aria-hidden>
                    <path fill="currentColor" d="m8 13.6-3.6-3.6L3 11.4l5 5 9-9L15.6 6z" />
                  </svg>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
        <div className="mt-1 border-t border-slate-100 pt-1">
          <Link to={lp('/workspace')} className="block rounded-md px-3 py-2 text-sm hover:bg-slate-50">
            {t('workspaces.switcher.settings')}
          </Link>
          <Link
            to={lp('/workspace/new')}
            className="block rounded-md px-3 py-2 text-sm hover:bg-slate-50"
            data-testid="workspace-create-link"
          >
            {t('workspaces.switcher.create')}
          </Link>
        </div>
      </div>
    </details>
  );
}
