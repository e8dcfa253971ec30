import { joinStreamed } from '../../common/streamed-text';
import { useCallback, useEffect, useState } from 'react';
import type { TemplateInput, TemplateJson } from '../../common/ai-templates';
import type { InsightEvent, InsightJson, InsightLanguage } from '../../common/insights';
import { api, apiUrl } from './api';

interface Templates {
  builtin: TemplateJson[];
  templates: TemplateJson[];
}

const busy = (i: InsightJson | undefined) => !!i && (i.status === 'queued' || i.status === 'running');

/**
 * The AI templates of the current workspace and a transcript's outputs of them: loaded when the
 * Templates tab opens, run on demand, followed live (progress and the Markdown as it is written).
 */
export function useTemplates(transcriptId: string, enabled: boolean) {
  const [templates, setTemplates] = useState<Templates | null>(null);
  const [outputs, setOutputs] = useState<InsightJson[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  /** The text being generated, per output id: the current completion's. */
  const [streams, setStreams] = useState<Record<string, { phase: number; text: string }>>({});

  const loadOutputs = useCallback(
    () =>
      api
        .get<{ templates: InsightJson[] }>(`/self-api/v1/transcripts/${transcriptId}/insights`, undefined, {
          handleErrors: true,
        })
        .then((d) => setOutputs(d.templates)),
    [transcriptId],
  );

  useEffect(() => {
    if (!enabled) return;
    let live = true;
    Promise.all([
      api.get<Templates>('/self-api/v1/ai-templates', undefined, { handleErrors: true }),
      api.get<{ templates: InsightJson[] }>(`/self-api/v1/transcripts/${transcriptId}/insights`, undefined, {
        handleErrors: true,
      }),
    ])
      .then(([t, i]) => {
        if (!live) return;
        setTemplates(t);
        setOutputs(i.templates);
      })
      .catch(() => live && setLoadFailed(true));
    return () => {
      live = false;
    };
  }, [transcriptId, enabled]);

  const following = !!outputs?.some(busy);
  useEffect(() => {
    if (!following) return;
    const source = new EventSource(apiUrl(`/self-api/v1/transcripts/${transcriptId}/insights/events`), {
      withCredentials: true,
    });
    source.addEventListener('snapshot', (e) => {
      const next = JSON.parse((e as MessageEvent<string>).data) as { templates: InsightJson[] };
      setOutputs(next.templates);
      if (!next.templates.some(busy)) source.close();
    });
    source.addEventListener('insight', (e) => {
      const ev = JSON.parse((e as MessageEvent<string>).data) as Extract<InsightEvent, { type: 'insight' }>;
      if (ev.kind !== 'template') return;
      setOutputs(
        (list) =>
          list?.map((o) =>
            o.id === ev.id
              ? {
                  ...o,
                  status: ev.status,
                  progress: ev.progress,
                  stage: ev.stage,
                  error_code: ev.errorCode ?? null,
                }
              : o,
          ) ?? list,
      );
    });
    source.addEventListener('token', (e) => {
      const ev = JSON.parse((e as MessageEvent<string>).data) as Extract<
        InsightEvent,
        { type: 'insight-token' }
      >;
      if (ev.kind !== 'template') return;
      setStreams((s) => ({ ...s, [ev.id]: joinStreamed(s[ev.id], ev) }));
    });
    return () => source.close();
  }, [following, transcriptId]);

  const run = useCallback(
    async (template: string, language: InsightLanguage | null) => {
      const insight = await api.post<InsightJson>(`/self-api/v1/transcripts/${transcriptId}/insights`, {
        kind: 'template',
        template,
        ...(language ? { language } : {}),
      });
      setStreams((s) => ({ ...s, [insight.id]: { phase: 0, text: '' } }));
      setOutputs((list) => {
        const before = list?.find((o) => o.id === insight.id);
        const next = { ...insight, markdown: insight.markdown ?? before?.markdown ?? null };
        return [next, ...(list ?? []).filter((o) => o.id !== insight.id)];
      });
    },
    [transcriptId],
  );

  const save = useCallback(async (input: TemplateInput, id?: string) => {
    const saved = id
      ? await api.patch<TemplateJson>(`/self-api/v1/ai-templates/${id}`, input)
      : await api.post<TemplateJson>('/self-api/v1/ai-templates', input);
    setTemplates((t) =>
      t
        ? {
            ...t,
            templates: id ? t.templates.map((x) => (x.id === id ? saved : x)) : [...t.templates, saved],
          }
        : t,
    );
    return saved;
  }, []);

  const remove = useCallback(async (id: string) => {
    await api.del(`/self-api/v1/ai-templates/${id}`);
    setTemplates((t) => (t ? { ...t, templates: t.templates.filter((x) => x.id !== id) } : t));
    setOutputs((list) => list?.filter((o) => o.template !== id) ?? list);
  }, []);

  return { templates, outputs, loadFailed, streams, run, save, remove, reload: loadOutputs };
}
