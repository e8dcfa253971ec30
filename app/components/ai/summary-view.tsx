import { useTranslation } from 'react-i18next';
import type { CitedText, Summary } from '../../../common/insights';
import { Cites } from './cite-button';

/** A made summary: the bottom line, then each non-empty section, every item with its moments. */
export function SummaryView({ summary, onSeek }: { summary: Summary; onSeek: (seconds: number) => void }) {
  const { t } = useTranslation();
  const section = (
    key: string,
    title: string,
    items: readonly (CitedText & { owner?: string | null; due?: string | null })[],
  ) =>
    items.length === 0 ? null : (
      <section key={key} data-testid={`ai-${key}`}>
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</h3>
        <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-slate-800">
          {items.map((p, i) => (
            <li key={i}>
              <bdi>{p.text}</bdi>
              {p.owner ? <span className="text-slate-500"> · {t('ai.owner', { name: p.owner })}</span> : null}
              {p.due ? <span className="text-slate-500"> · {t('ai.due', { date: p.due })}</span> : null}
              <Cites cites={p.cites} onSeek={onSeek} />
            </li>
          ))}
        </ul>
      </section>
    );
  return (
    <div className="space-y-3" data-testid="ai-summary">
      <section>
        <h3 className="text-xs font-semibold uppercase tracking-wide text-slate-500">{t('ai.bottomLine')}</h3>
        <p className="mt-1 text-sm font-medium text-slate-900">
          <bdi>{summary.bottomLine.text}</bdi>
          <Cites cites={summary.bottomLine.cites} onSeek={onSeek} />
        </p>
      </section>
      {section('keyPoints', t('ai.keyPoints'), summary.keyPoints)}
      {section('decisions', t('ai.decisions'), summary.decisions)}
      {section('actionItems', t('ai.actionItems'), summary.actionItems)}
      {section('openQuestions', t('ai.openQuestions'), summary.openQuestions)}
    </div>
  );
}
