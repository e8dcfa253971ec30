import { useCallback, useEffect, useState } from 'react';
import type { FolderJson } from '../../common/folder-types';
import { ACTIVE_STATUSES, type TranscriptPage } from '../../common/transcript-types';
import { api } from './api';
import { refreshUserState } from './user-state';

export const PAGE_SIZE = 20;
const POLL_MS = 3_000;
export const SORTS = {
  newest: { sort: 'created_at', order: 'desc' },
  oldest: { sort: 'created_at', order: 'asc' },
  name: { sort: 'name', order: 'asc' },
  longest: { sort: 'duration', order: 'desc' },
} as const;
export type SortKey = keyof typeof SORTS;

/**
 * One page of the signed-in user's transcripts (in a folder, or all) with its search, sort and
 * page number, and the folder list beside it. While a transcript on the page is queued or
 * processing, the page is fetched again every few seconds.
 */
export function useTranscriptPage(folderId: string | null) {
  const [folders, setFolders] = useState<FolderJson[]>([]);
  const [page, setPage] = useState<TranscriptPage | null>(null);
  const [pageNo, setPageNo] = useState(1);
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<SortKey>('newest');

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

  return { page, folders, load, loadFolders, pageNo, setPageNo, query, setQuery, search, sort, setSort };
}
