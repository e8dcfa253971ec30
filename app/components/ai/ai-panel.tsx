import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  summaryMarkdown,
  vttChapters,
  youtubeChapters,
  type InsightJson,
  type InsightLanguage,
} from '../../../common/insights';
import { fileStem, saveText } from '../../lib/download';
import { useLocale } from '../../lib/use-locale';
import type { GeneratedKind, useInsights } from '../../lib/use-insights';
import { chapterAt, ChaptersView } from './chapters-view';
import { InsightFailed, InsightProgress, StaleNote } from './insight-status';
import { SummaryView } from './summary-view';
import { LanguageOptions } from './language-options';
import { TemplatesTab } from './templates-tab';

type Tab = GeneratedKind | 'ask' | 'templates';

const small =
  'rounded-lg border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';
const primary =
  'rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50';

/** A file name from the transcript's name: letters and digits kept, the rest a dash. */

/**
 * The AI panel of the transcript page: the summary and the chapters, made on demand in the chosen
 * language, streamed while they are written, every statement linked to its moment.
 */
export function AiPanel({
  name,
  transcriptLanguage,
  duration,
  insights,
  time,
  onSeek,
  canGenerate,
  ask,
}: {
  name: string;
  /** The transcript's own language's name, when known. */
  transcriptLanguage: string | null;
  duration: number | null;
  insights: ReturnType<typeof useInsights>;
  time: number;
  onSeek: (seconds: number) => void;
  canGenerate: boolean;
  /** The Ask tab's content (ask-tab.tsx), when the caller may ask. */
  ask?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const [tab, setTab] = useState<Tab>('summary');
  const [language, setLanguage] = useState<InsightLanguage>(locale);
  const [asking, setAsking] = useState(false);
  const { state, streams, generate } = insights;
  const current = tab === 'templates' || tab === 'ask' ? null : (state?.[tab] ?? null);
  const busy = asking || (!!current && (current.status === 'queued' || current.status === 'running'));

  const make = async () => {
    setAsking(true);
    try {
      if (tab !== 'templates' && tab !== 'ask') await generate(tab, language);
    } catch {
      // the API client has shown why
    } finally {
      setAsking(false);
    }
  };

  const labels = {
    bottomLine: t('ai.bottomLine'),
    keyPoints: t('ai.keyPoints'),
    decisions: t('ai.decisions'),
    actionItems: t('ai.actionItems'),
    openQuestions: t('ai.openQuestions'),
    owner: (n: string) => t('ai.owner', { name: n }),
    due: (d: string) => t('ai.due', { date: d }),
  };
  const textOf = (i: InsightJson) =>
    i.summary ? summaryMarkdown(i.summary, labels) : i.chapters ? youtubeChapters(i.chapters) : '';
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('ai.copied'));
    } catch {
      toast.error(t('editor.copyFailed'));
    }
  };

  const made = current && (current.summary || current.chapters) ? current : null;
  const tabs: { id: Tab; label: string }[] = [
    { id: 'summary', label: t('ai.tabs.summary') },
    { id: 'chapters', label: t('ai.tabs.chapters') },
    ...(ask ? [{ id: 'ask' as const, label: t('ai.tabs.ask') }] : []),
    { id: 'templates', label: t('ai.tabs.templates') },
  ];

  return (
    <section
      className="rounded-xl border border-slate-200 bg-white"
      aria-label={t('ai.title')}
      data-testid="ai-panel"
    >
      <div
        role="tablist"
        aria-label={t('ai.title')}
        className="flex flex-wrap gap-1 border-b border-slate-200 px-2 pt-2"
      >
        {tabs.map((x) => (
          <button
            key={x.id}
            type="button"
            role="tab"
            id={`ai-tab-${x.id}`}
            aria-selected={tab === x.id}
            aria-controls="ai-tabpanel"
            onClick={() => setTab(x.id)}
            className={`-mb-px rounded-t-lg border-b-2 px-3 py-2 text-sm font-medium ${
              tab === x.id
                ? 'border-brand-600 text-brand-700'
                : 'border-transparent text-slate-600 hover:text-slate-900'
            }`}
          >
            {x.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="ai-tabpanel" aria-labelledby={`ai-tab-${tab}`} className="space-y-3 p-4">
        {tab === 'ask' ? (
          ask
        ) : tab === 'templates' ? (
          <TemplatesTab
            transcriptId={insights.transcriptId}
            name={name}
            transcriptLanguage={transcriptLanguage}
            onSeek={onSeek}
            canGenerate={canGenerate}
          />
        ) : !state ? (
          <p className="text-sm text-slate-500">
            {insights.loadFailed ? t('errors.requestError') : t('ai.loading')}
          </p>
        ) : (
          <>
            {!made && !busy ? (
              <p className="text-sm text-slate-600">
                {tab === 'summary' ? t('ai.summaryIntro') : t('ai.chaptersIntro')}
              </p>
            ) : null}
            {current?.status === 'failed' && !busy ? <InsightFailed insight={current} /> : null}
            {made?.stale && !busy && canGenerate ? (
              <StaleNote busy={busy} onRegenerate={() => void make()} />
            ) : null}
            {busy && current ? <InsightProgress insight={current} streamed={streams[tab].text} /> : null}
            {made?.summary && tab === 'summary' ? (
              <SummaryView summary={made.summary} onSeek={onSeek} />
            ) : null}
            {made?.chapters && tab === 'chapters' ? (
              <ChaptersView
                chapters={made.chapters}
                current={chapterAt(made.chapters, time)}
                onSeek={onSeek}
              />
            ) : null}
            {made ? (
              <div className="flex flex-wrap gap-2">
                <button type="button" className={small} onClick={() => void copy(textOf(made))}>
                  {t('ai.copy')}
                </button>
                {made.summary ? (
                  <button
                    type="button"
                    className={small}
                    onClick={() => saveText(textOf(made), `${fileStem(name)}-summary.md`, 'text/markdown')}
                  >
                    {t('ai.downloadMarkdown')}
                  </button>
                ) : null}
                {made.chapters ? (
                  <>
                    <button
                      type="button"
                      className={small}
                      data-testid="download-chapters-vtt"
                      onClick={() =>
                        saveText(
                          vttChapters(made.chapters!, duration),
                          `${fileStem(name)}-chapters.vtt`,
                          'text/vtt',
                        )
                      }
                    >
                      {t('ai.downloadVtt')}
                    </button>
                    <button
                      type="button"
                      className={small}
                      onClick={() => saveText(textOf(made), `${fileStem(name)}-chapters.txt`)}
                    >
                      {t('ai.downloadText')}
                    </button>
                  </>
                ) : null}
              </div>
            ) : null}
            {canGenerate ? (
              <div className="flex flex-wrap items-end gap-2 border-t border-slate-100 pt-3">
                <label className="text-xs text-slate-600">
                  <span className="block">{t('ai.language')}</span>
                  <select
                    value={language}
                    onChange={(e) => setLanguage(e.target.value as InsightLanguage)}
                    className="mt-0.5 rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
                    data-testid="ai-language"
                  >
                    <LanguageOptions transcriptLanguage={transcriptLanguage} />
                  </select>
                </label>
                <button
                  type="button"
                  className={primary}
                  disabled={busy}
                  onClick={() => void make()}
                  data-testid="ai-generate"
                >
                  {made || current?.status === 'failed'
                    ? t('ai.regenerate')
                    : tab === 'summary'
                      ? t('ai.makeSummary')
                      : t('ai.makeChapters')}
                </button>
              </div>
            ) : null}
            <p className="text-xs text-slate-500" data-testid="ai-usage">
              {state.usage.limit === null
                ? t('ai.usageUnlimited', { used: state.usage.used })
                : t('ai.usage', { used: state.usage.used, limit: state.usage.limit })}
            </p>
          </>
        )}
      </div>
    </section>
  );
}
