import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../common/format';
import type { SearchSnippet } from '../../../common/search-snippet';

/** Where a search result opens its transcript: at the matching segment (view.tsx reads it). */
export function snippetHref(path: string, snippet: SearchSnippet): string {
  return `${path}?${new URLSearchParams({ seg: String(snippet.segment), t: String(snippet.start) }).toString()}`;
}

/**
 * The text around a search match under a result, matches marked; a link to that segment. The
 * server sends plain text and offsets, so the text is only ever text.
 */
export function SnippetLink({ to, snippet }: { to: string; snippet: SearchSnippet }) {
  const { t } = useTranslation();
  const parts: React.ReactNode[] = [];
  let at = 0;
  for (const m of snippet.matches) {
    if (m.start < at || m.end > snippet.text.length) continue;
    parts.push(
      snippet.text.slice(at, m.start),
      <mark key={m.start} className="rounded-sm bg-amber-200 px-0.5 text-slate-900">
        {snippet.text.slice(m.start, m.end)}
      </mark>,
    );
    at = m.end;
  }
  parts.push(snippet.text.slice(at));
  const time = formatTime(snippet.start);
  return (
    <Link
      to={snippetHref(to, snippet)}
      data-testid="snippet"
      title={t('workspace.openAtMatch', { time })}
      className="mt-1 flex gap-2 rounded-md text-sm text-slate-600 hover:bg-slate-50 hover:text-slate-900"
    >
      <span className="shrink-0 pt-px font-mono text-xs text-brand-700 tabular-nums">{time}</span>
      <span className="line-clamp-3 min-w-0 [overflow-wrap:anywhere] sm:line-clamp-2">
        {snippet.truncated_start ? '…' : ''}
        {parts}
        {snippet.truncated_end ? '…' : ''}
      </span>
    </Link>
  );
}
