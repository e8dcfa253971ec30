import { useCallback, useEffect, useRef, useState } from 'react';
import { api, apiUrl } from './api';
import type { RenderRequestInput } from '../../common/render-options';
import type { RenderStatus } from '../../common/record-states';

/** A render as GET /renders/:id answers it (server/modules/render/payload.ts). */
export interface RenderItem {
  id: string;
  status: RenderStatus;
  progress: number;
  preview: boolean;
  options: RenderRequestInput & { start?: number; end?: number };
  duration_sec: number;
  width: number | null;
  height: number | null;
  watermark: boolean;
  size: number | null;
  error: string | null;
  file_url: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface RenderQuota {
  minutes_per_month: number | null;
  minutes_used: number;
  minutes_left: number | null;
  max_resolution: number;
  watermark: boolean;
}

export const renderLive = (r: RenderItem) => r.status === 'queued' || r.status === 'running';

/**
 * The render dialog's data: the transcript's renders and the plan's minutes (loaded when the
 * dialog opens), each waiting or running render followed through its event stream, and the
 * actions (start, preview, cancel). Refusals are toasted, translated, by the API client.
 */
export function useRenders(transcriptId: string, open: boolean) {
  const [items, setItems] = useState<RenderItem[] | null>(null);
  const [quota, setQuota] = useState<RenderQuota | null>(null);
  const [busy, setBusy] = useState(false);
  const followed = useRef(new Map<string, EventSource>());

  const fetchList = useCallback(
    () =>
      api.get<{ items: RenderItem[]; quota: RenderQuota }>(
        `/self-api/v1/transcripts/${transcriptId}/renders`,
        undefined,
        { handleErrors: true },
      ),
    [transcriptId],
  );
  const reload = useCallback(async () => {
    try {
      const data = await fetchList();
      setItems(data.items);
      setQuota(data.quota);
    } catch {
      // shown by the API client
    }
  }, [fetchList]);

  useEffect(() => {
    if (!open) return;
    let live = true;
    fetchList()
      .then((data) => {
        if (!live) return;
        setItems(data.items);
        setQuota(data.quota);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [open, fetchList]);

  const put = useCallback((next: RenderItem) => {
    setItems((list) => {
      const rest = (list ?? []).filter((r) => r.id !== next.id);
      return [next, ...rest].sort((a, b) => b.created_at.localeCompare(a.created_at));
    });
  }, []);

  // Every render still waiting or running is followed while the dialog is open.
  useEffect(() => {
    const streams = followed.current;
    if (!open) {
      for (const s of streams.values()) s.close();
      streams.clear();
      return;
    }
    for (const r of items ?? []) {
      if (!renderLive(r) || streams.has(r.id)) continue;
      const source = new EventSource(apiUrl(`/self-api/v1/renders/${r.id}/events`), {
        withCredentials: true,
      });
      streams.set(r.id, source);
      const end = () => {
        source.close();
        streams.delete(r.id);
      };
      source.addEventListener('snapshot', (e) => {
        const next = JSON.parse((e as MessageEvent<string>).data) as RenderItem;
        put(next);
        if (!renderLive(next)) {
          end();
          // A failed or canceled render gives its minutes back.
          void reload();
        }
      });
      source.addEventListener('progress', (e) => {
        const p = JSON.parse((e as MessageEvent<string>).data) as { status: RenderStatus; progress: number };
        setItems((list) =>
          (list ?? []).map((x) => (x.id === r.id ? { ...x, status: p.status, progress: p.progress } : x)),
        );
      });
    }
  }, [open, items, put, reload]);

  useEffect(() => {
    const streams = followed.current;
    return () => {
      for (const s of streams.values()) s.close();
      streams.clear();
    };
  }, []);

  const start = useCallback(
    async (request: RenderRequestInput): Promise<RenderItem | null> => {
      setBusy(true);
      try {
        const row = await api.post<RenderItem>(`/self-api/v1/transcripts/${transcriptId}/renders`, request);
        put(row);
        void reload();
        return row;
      } catch {
        return null;
      } finally {
        setBusy(false);
      }
    },
    [transcriptId, put, reload],
  );

  const cancel = useCallback(
    async (id: string) => {
      try {
        put(await api.post<RenderItem>(`/self-api/v1/renders/${id}/cancel`));
        void reload();
      } catch {
        // shown by the API client
      }
    },
    [put, reload],
  );

  return { items, quota, busy, start, cancel };
}
