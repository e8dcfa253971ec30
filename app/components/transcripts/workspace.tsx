import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { FolderJson } from '../../../common/folder-types';
import type { TranscriptJson } from '../../../common/transcript-types';
import { api } from '../../lib/api';
import { PAGE_SIZE, SORTS, useTranscriptPage, type SortKey } from '../../lib/use-transcript-page';
import { planFormats, refreshUserState, useUserState } from '../../lib/user-state';
import { PageFrame } from '../layout/page-frame';
import { BulkBar } from './bulk-bar';
import { FolderList } from './folder-list';
import { FolderToolbar } from './folder-toolbar';
import { QuotaMeter } from './quota-meter';
import { TranscriptList } from './transcript-list';
import { UploadPanel } from './upload-panel';
import { PendingInvitations } from '../workspaces/pending-invitations';

const control =
  'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none';
const button =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

/** The dashboard and a folder's page: upload, search, sort, pages, folders and bulk actions. */
export function Workspace({ folder }: { folder: FolderJson | null }) {
  const { t } = useTranslation();
  const userState = useUserState();
  const { permissions_quota: quota } = userState;
  const folderId = folder?.id ?? null;
  const list = useTranscriptPage(folderId);
  const { page, folders, load, loadFolders, pageNo, setPageNo, search } = list;
  const [selected, setSelected] = useState<Set<string>>(new Set());

  const refresh = useCallback(() => {
    setSelected(new Set());
    load();
    loadFolders();
  }, [load, loadFolders]);

  const onCreated = useCallback((_t: TranscriptJson) => refresh(), [refresh]);
  const live = useMemo(() => new Map((page?.items ?? []).map((i) => [i.id, i])), [page]);

  const move = async (ids: string[], target: string | null) => {
    try {
      await api.post('/self-api/v1/transcripts/move', { ids, folder_id: target });
      toast.success(t('workspace.moved', { count: ids.length }));
      refresh();
    } catch {
      // the API client has shown the translated error
    }
  };

  const removeSelected = async () => {
    if (!window.confirm(t('workspace.confirmDelete', { count: selected.size }))) return;
    try {
      await api.post('/self-api/v1/transcripts/delete', { ids: [...selected] });
      toast.success(t('workspace.deleted', { count: selected.size }));
      refresh();
      void refreshUserState();
    } catch {
      // shown by the API client
    }
  };

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const items = useMemo(() => page?.items ?? [], [page]);
  const pages = page ? Math.max(1, Math.ceil(page.total / PAGE_SIZE)) : 1;
  const { formats, locked } = planFormats(userState);

  return (
    <PageFrame
      heading={folder ? folder.name : t('pages.dashboard.heading')}
      actions={<QuotaMeter quota={quota} />}
    >
      {folder ? <FolderToolbar folder={folder} onRenamed={loadFolders} /> : <PendingInvitations />}
      <div className="grid gap-6 lg:grid-cols-[14rem_minmax(0,1fr)]">
        {/* On desktop the folders stay in view below the sticky header (h-16) while the list
            scrolls, so a transcript far down the list can still be dragged onto one. */}
        <aside className="lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:self-start lg:overflow-y-auto">
          <FolderList
            folders={folders}
            current={folderId}
            onChanged={loadFolders}
            onDropTranscripts={(ids, target) => void move(ids, target)}
          />
        </aside>
        <div className="min-w-0 space-y-6">
          <UploadPanel
            maxFileMb={quota?.max_file_mb ?? null}
            folderId={folderId}
            onCreated={onCreated}
            live={live}
          />
          <div className="flex flex-wrap items-center gap-2">
            <input
              type="search"
              value={list.query}
              onChange={(e) => list.setQuery(e.target.value)}
              placeholder={t('workspace.search')}
              aria-label={t('workspace.search')}
              // Room for the whole placeholder (German's is long); the sort box wraps below on phones.
              className={`${control} min-w-0 flex-1 basis-64`}
            />
            <select
              value={list.sort}
              onChange={(e) => list.setSort(e.target.value as SortKey)}
              aria-label={t('workspace.sort')}
              className={control}
            >
              {(Object.keys(SORTS) as SortKey[]).map((key) => (
                <option key={key} value={key}>
                  {t(`workspace.sorts.${key}`)}
                </option>
              ))}
            </select>
          </div>
          {items.length > 0 ? (
            <BulkBar
              ids={items.map((i) => i.id)}
              nameOf={(id) => items.find((i) => i.id === id)?.name}
              selected={selected}
              onSelect={setSelected}
              folders={folders}
              formats={formats}
              locked={locked}
              onMove={(ids, target) => void move(ids, target)}
              onDelete={() => void removeSelected()}
            />
          ) : null}
          {page === null ? (
            <p className="text-sm text-slate-500">{t('common.loading')}</p>
          ) : items.length === 0 ? (
            <div className="rounded-2xl border border-slate-200 px-6 py-12 text-center">
              <h2 className="text-lg font-semibold text-slate-900">
                {search ? t('workspace.noResults') : t('pages.dashboard.emptyTitle')}
              </h2>
              {search ? null : (
                <p className="mx-auto mt-1 max-w-sm text-sm text-slate-600">
                  {t('pages.dashboard.emptyText')}
                </p>
              )}
            </div>
          ) : (
            <TranscriptList items={items} selected={selected} onToggle={toggle} />
          )}
          {page && page.total > PAGE_SIZE ? (
            <nav
              className="flex items-center justify-between text-sm text-slate-600"
              aria-label={t('workspace.pages')}
            >
              <button
                type="button"
                className={button}
                disabled={pageNo <= 1}
                onClick={() => setPageNo((p) => p - 1)}
              >
                {t('workspace.previous')}
              </button>
              <span>
                {t('workspace.range', {
                  from: (pageNo - 1) * PAGE_SIZE + 1,
                  to: Math.min(pageNo * PAGE_SIZE, page.total),
                  total: page.total,
                })}
              </span>
              <button
                type="button"
                className={button}
                disabled={pageNo >= pages}
                onClick={() => setPageNo((p) => p + 1)}
              >
                {t('workspace.next')}
              </button>
            </nav>
          ) : null}
        </div>
      </div>
    </PageFrame>
  );
}
