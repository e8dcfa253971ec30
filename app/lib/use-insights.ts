import { joinStreamed } from '../../common/streamed-text';
import { useCallback, useEffect, useState } from 'react';
import type { InsightEvent, InsightJson, InsightLanguage, AiUsageJson } from '../../common/insights';
import { api, apiUrl } from './api';

export type GeneratedKind = 'summary' | 'chapters';

export interface InsightsState {
  summary: InsightJson | null;
  chapters: InsightJson | null;
  templates: InsightJson[];
  usage: AiUsageJson;
}

const busy = (i: InsightJson | null) => !!i && (i.status === 'queued' || i.status === 'running');

/**
 * A transcript's summary and chapters: loaded once, asked for on demand, and followed live while
 * one is on its way (progress, and the text as the model writes it).
 */
export function useInsights(transcriptId: string, enabled: boolean) {
  const [state, setState] = useState<InsightsState | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  /** The text being generated, per kind: the current completion's (a new phase starts afresh). */
  const [streams, setStreams] = useState<Record<GeneratedKind, { phase: number; text: string }>>({
    summary: { phase: 0, text: '' },
    chapters: { phase: 0, text: '' },
  });

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    api
      .get<InsightsState>(`/self-api/v1/transcripts/${transcriptId}/insights`, undefined, {
        handleErrors: true,
      })
      .then((d) => live && setState(d))
      .catch(() => live && setLoadFailed(true));
    return () => {
      live = false;
    };
  }, [transcriptId, enabled]);

  const following = busy(state?.summary ?? null) || busy(state?.chapters ?? null);
  useEffect(() => {
    if (!following) return;
    const source = new EventSource(apiUrl(`/self-api/v1/transcripts/${transcriptId}/insights/events`), {
      withCredentials: true,
    });
    source.addEventListener('snapshot', (e) => {
      const next = JSON.parse((e as MessageEvent<string>).data) as InsightsState;
      setState(next);
      if (!busy(next.summary) && !busy(next.chapters)) source.close();
    });
    source.addEventListener('insight', (e) => {
      const ev = JSON.parse((e as MessageEvent<string>).data) as Extract<InsightEvent, { type: 'insight' }>;
      if (ev.kind !== 'summary' && ev.kind !== 'chapters') return;
      const kind = ev.kind;
      setState((s) => {
        const current = s?.[kind];
        if (!s || !current || current.id !== ev.id) return s;
        return {
          ...s,
          [kind]: {
            ...current,
            status: ev.status,
            progress: ev.progress,
            stage: ev.stage,
            error_code: ev.errorCode ?? null,
          },
        };
      });
    });
    source.addEventListener('token', (e) => {
      const ev = JSON.parse((e as MessageEvent<string>).data) as Extract<
        InsightEvent,
        { type: 'insight-token' }
      >;
      if (ev.kind !== 'summary' && ev.kind !== 'chapters') return;
      const kind = ev.kind;
      setStreams((s) => ({ ...s, [kind]: joinStreamed(s[kind], ev) }));
    });
    return () => source.close();
  }, [following, transcriptId]);

  const generate = useCallback(
    async (kind: GeneratedKind, language: InsightLanguage) => {
      setStreams((s) => ({ ...s, [kind]: { phase: 0, text: '' } }));
      const insight = await api.post<InsightJson>(`/self-api/v1/transcripts/${transcriptId}/insights`, {
        kind,
        language,
      });
      setState((s) =>
        s
          ? {
              ...s,
              [kind]: {
                ...insight,
                summary: insight.summary ?? s[kind]?.summary ?? null,
                chapters: insight.chapters ?? s[kind]?.chapters ?? null,
              },
            }
          : s,
      );
    },
    [transcriptId],
  );

  return { transcriptId, state, loadFailed, streams, generate };
}
