import { useCallback, useEffect, useMemo, useState } from 'react';
import i18next from 'i18next';
import { toast } from 'sonner';
import type { TrackJson, TranslationQuotaJson } from '../../common/translation-types';
import { api, apiUrl } from './api';

/** Followed by its event stream: translating, or one of its segments being translated again. */
const busy = (t: TrackJson) =>
  t.status === 'queued' || t.status === 'running' || (t.retranslating?.length ?? 0) > 0;

function fetchTracks(transcriptId: string) {
  return api
    .get<{ items: TrackJson[]; quota: TranslationQuotaJson }>(
      `/self-api/v1/transcripts/${transcriptId}/translations`,
      undefined,
      { handleErrors: true },
    )
    .catch(() => null);
}

/**
 * A transcript's translation tracks: loaded once it is finished, each track that is waiting or
 * running followed through its event stream (a snapshot, then each translated segment, then the
 * final snapshot), like the transcription itself; so is a finished track while a segment of it is
 * translated again (a job: its text comes as a `retranslated` event).
 */
export function useTracks(transcriptId: string, enabled: boolean) {
  const [tracks, setTracks] = useState<TrackJson[]>([]);
  const [quota, setQuota] = useState<TranslationQuotaJson | null>(null);
  const [loaded, setLoaded] = useState(false);

  const apply = useCallback((data: { items: TrackJson[]; quota: TranslationQuotaJson } | null) => {
    if (data) {
      setTracks(data.items);
      setQuota(data.quota);
    }
    setLoaded(true);
  }, []);
  const reload = useCallback(
    // On failure no tracks are shown; the page still works.
    () => fetchTracks(transcriptId).then(apply),
    [transcriptId, apply],
  );

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void fetchTracks(transcriptId).then((data) => live && apply(data));
    return () => {
      live = false;
    };
  }, [enabled, transcriptId, apply]);

  /** Puts a track (new or changed) in the list, in language order. */
  const put = useCallback((track: TrackJson) => {
    setTracks((list) =>
      [...list.filter((t) => t.id !== track.id), track].sort((a, b) => a.language.localeCompare(b.language)),
    );
  }, []);

  // One stream per running track; the key changes when a track starts or ends.
  const runningKey = tracks
    .filter(busy)
    .map((t) => t.id)
    .join(',');
  useEffect(() => {
    if (!runningKey) return;
    const sources = runningKey.split(',').map((id) => {
      const source = new EventSource(apiUrl(`/self-api/v1/translations/${id}/events`), {
        withCredentials: true,
      });
      source.addEventListener('snapshot', (e) => {
        const next = JSON.parse((e as MessageEvent<string>).data) as TrackJson;
        put(next);
        if (!busy(next)) {
          source.close();
          // The characters charged (a failure gives them back).
          void reload();
        }
      });
      source.addEventListener('segment', (e) => {
        const ev = JSON.parse((e as MessageEvent<string>).data) as {
          index: number;
          text: string;
          progress: number;
        };
        setTracks((list) =>
          list.map((t) => {
            if (t.id !== id) return t;
            const texts = [...t.texts];
            texts[ev.index] = ev.text;
            return { ...t, texts, status: 'running', progress: Math.max(t.progress, ev.progress) };
          }),
        );
      });
      source.addEventListener('retranslated', (e) => {
        const ev = JSON.parse((e as MessageEvent<string>).data) as {
          index: number;
          text: string | null;
          revision: number | null;
        };
        if (ev.text === null) toast.error(i18next.t('translation.retranslateFailed'));
        setTracks((list) =>
          list.map((t) => {
            if (t.id !== id) return t;
            const texts = [...t.texts];
            if (ev.text !== null) texts[ev.index] = ev.text;
            return {
              ...t,
              texts,
              revision: Math.max(t.revision, ev.revision ?? 0),
              retranslating: (t.retranslating ?? []).filter((i) => i !== ev.index),
            };
          }),
        );
      });
      return source;
    });
    return () => sources.forEach((s) => s.close());
  }, [runningKey, put, reload]);

  /** Starts (or starts again) the translation into `language`; resolves to the new track. */
  const create = useCallback(
    async (language: string) => {
      const track = await api.post<TrackJson>(`/self-api/v1/transcripts/${transcriptId}/translations`, {
        language,
      });
      put(track);
      void reload();
      return track;
    },
    [transcriptId, put, reload],
  );

  const byLanguage = useMemo(() => new Map(tracks.map((t) => [t.language.toLowerCase(), t])), [tracks]);
  return { tracks, quota, loaded, reload, put, create, byLanguage };
}

export type Tracks = ReturnType<typeof useTracks>;
