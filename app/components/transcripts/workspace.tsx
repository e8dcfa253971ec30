import { useCallback, useEffect, useMemo, useState } from 'react';
import { RANK_LIMITS } from '../../../common/ranks';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { FolderJson } from '../../../common/folder-types';
import { ACTIVE_STATUSES, type TranscriptJson, type TranscriptPage } from '../../../common/transcript-types';
import { api } from '../../lib/api';
import { ApiClientError } from '../../lib/api-client';
import { downloadFile } from '../../lib/download';
import { useLocalePath } from '../../lib/use-locale';
import { refreshUserState, useUserState } from '../../lib/user-state';
import { PageFrame } from '../layout/page-frame';
import { FolderList } from './folder-list';
import { QuotaMeter } from './quota-meter';
import { TranscriptList } from './transcript-list';
import { UploadPanel } from './upload-panel';

const PAGE_SIZE = 20;
const POLL_MS = 3_000;
const SORTS = {
  newest: { sort: 'created_at', order: 'desc' },
  oldest: { sort: 'created_at', order: 'asc' },
  name: { sort: 'name', order: 'asc' },
  longest: { sort: 'duration', order: 'desc' },
} as const;
type SortKey = keyof typeof SORTS;

const control =
  'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none';
const button =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

/** The dashboard and a folder's page: upload, search, sort, pages, folders and bulk actions. */
export function Workspace({ folder }: { folder: FolderJson | null }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const { permissions_quota: quota } = useUserState();
  const folderId = folder?.id ?? null;
  const [folders, setFolders] = useState<FolderJson[]>([]);
  const [page, setPage] = useState<TranscriptPage | null>(null);
  const [pageNo, setPageNo] = useState(1);
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortKey>('newest');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [format, setFormat] = useState('txt');
  const [deleting, setDeleting] = useState(false);

  // Typing settles for a moment before the search runs.
  useEffect(() => {
    const timer = setTimeout(() => {
      setSearch(query.trim());
      setPageNo(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [query]);

  const loadFolders = useCallback(() => {
    api
      .get<{ items: FolderJson[] }>('/self-api/v1/folders', undefined, { handleErrors: true })
      .then((r) => setFolders(r.items))
      .catch(() => undefined);
  }, []);

  const load = useCallback(() => {
    api
      .get<TranscriptPage>(
        '/self-api/v1/transcripts',
        {
          ...SORTS[sort],
          q: search || undefined,
          page: pageNo,
          page_size: PAGE_SIZE,
          folder_id: folderId ?? undefined,
        },
        { handleErrors: true },
      )
      .then(setPage)
      // Kept as it was; the next poll or action tries again.
      .catch(() => undefined);
  }, [sort, search, pageNo, folderId]);

  useEffect(load, [load]);
  useEffect(loadFolders, [loadFolders]);

  const active = page?.items.some((i) => ACTIVE_STATUSES.includes(i.status)) ?? false;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(load, POLL_MS);
    return () => {
      clearInterval(timer);
      void refreshUserState();
    };
  }, [active, load]);

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

  const exportSelected = async () => {
    try {
      await downloadFile('/self-api/v1/transcripts/export', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ids: [...selected], format, timestamps: true }),
      });
    } catch (err) {
      toast.error(
        err instanceof ApiClientError
          ? t(err.message, (err.data ?? {}) as Record<string, unknown>)
          : t('errors.requestError'),
      );
    }
  };

  const renameFolder = async () => {
    if (!folder) return;
    const name = window.prompt(t('workspace.renameFolder'), folder.name)?.trim();
    if (!name || name === folder.name) return;
    try {
      await api.patch(`/self-api/v1/folders/${folder.id}`, { name });
      void navigate('.', { replace: true });
      loadFolders();
    } catch {
      // shown by the API client
    }
  };

  const deleteFolder = async (contents: 'move' | 'delete') => {
    if (!folder) return;
    try {
      await api.request('DELETE', `/self-api/v1/folders/${folder.id}`, { query: { contents } });
      toast.success(t('workspace.folderDeleted'));
      void navigate(to('/dashboard'));
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
  const allSelected = items.length > 0 && items.every((i) => selected.has(i.id));
  const pages = page ? Math.max(1, Math.ceil(page.total / PAGE_SIZE)) : 1;
  const formats = quota?.export_formats ?? RANK_LIMITS.Free.export_formats;

  return (
    <PageFrame
      heading={folder ? folder.name : t('pages.dashboard.heading')}
      actions={<QuotaMeter quota={quota} />}
    >
      {folder ? (
        <div className="-mt-4 mb-6 flex flex-wrap items-center gap-2">
          <button type="button" className={button} onClick={() => void renameFolder()}>
            {t('workspace.renameFolder')}
          </button>
          {deleting ? (
            <span
              role="group"
              className="flex flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-1.5 text-sm"
            >
              <span className="text-red-800">{t('workspace.deleteFolderAsk')}</span>
              <button type="button" className={button} onClick={() => void deleteFolder('move')}>
                {t('workspace.deleteFolderMove')}
              </button>
              <button
                type="button"
                className={`${button} text-red-700`}
                onClick={() => void deleteFolder('delete')}
              >
                {t('workspace.deleteFolderAll')}
              </button>
              <button type="button" className="px-2 text-slate-600" onClick={() => setDeleting(false)}>
                {t('common.cancel')}
              </button>
            </span>
          ) : (
            <button type="button" className={`${button} text-red-700`} onClick={() => setDeleting(true)}>
              {t('workspace.deleteFolder')}
            </button>
          )}
        </div>
      ) : null}
      <div className="grid gap-6 lg:grid-cols-[14rem_minmax(0,1fr)]">
        <aside>
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
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder={t('workspace.search')}
              aria-label={t('workspace.search')}
              className={`${control} min-w-0 flex-1`}
            />
            <select
              value={sort}
              onChange={(e) => setSort(e.target.value as SortKey)}
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
            <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="bulk">
              <label className="flex items-center gap-2 px-1 text-slate-700">
                <input
                  type="checkbox"
                  checked={allSelected}
                  onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((i) => i.id)))}
                  className="h-4 w-4 rounded border-slate-300"
                />
                {selected.size > 0
                  ? t('workspace.selected', { count: selected.size })
                  : t('workspace.selectAll')}
              </label>
              {selected.size > 0 ? (
                <>
                  <select
                    aria-label={t('workspace.moveTo')}
                    value=""
                    onChange={(e) =>
                      e.target.value &&
                      void move([...selected], e.target.value === 'root' ? null : e.target.value)
                    }
                    className={control}
                  >
                    <option value="">{t('workspace.moveTo')}</option>
                    <option value="root">{t('workspace.allTranscripts')}</option>
                    {folders.map((f) => (
                      <option key={f.id} value={f.id}>
                        {f.name}
                      </option>
                    ))}
                  </select>
                  <select
                    aria-label={t('workspace.format')}
                    value={format}
                    onChange={(e) => setFormat(e.target.value)}
                    className={control}
                  >
                    {formats.map((f) => (
                      <option key={f} value={f}>
                        {f.toUpperCase()}
                      </option>
                    ))}
                  </select>
                  <button type="button" className={button} onClick={() => void exportSelected()}>
                    {t('workspace.export')}
                  </button>
                  <button
                    type="button"
                    className={`${button} text-red-700`}
                    onClick={() => void removeSelected()}
                  >
                    {t('workspace.delete')}
                  </button>
                </>
              ) : null}
            </div>
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
