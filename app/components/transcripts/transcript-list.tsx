import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TranscriptJson } from '../../../common/transcript-types';
import { useLocalePath } from '../../lib/use-locale';
import { DRAG_TYPE } from './folder-list';
import { useLanguageName } from './language-select';
import { SnippetLink } from './search-snippet';
import { StatusBadge } from './status-badge';
import { useFormat } from '../../lib/use-format';

/** Transcript rows with selection; rows drag onto folders (the whole selection when selected). */
export function TranscriptList({
  items,
  selected,
  onToggle,
}: {
  items: TranscriptJson[];
  selected: Set<string>;
  onToggle: (id: string) => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const to = useLocalePath();
  const nameOf = useLanguageName();
  return (
    <ul
      className="divide-y divide-slate-200 overflow-hidden rounded-xl border border-slate-200 bg-white"
      data-testid="transcripts"
    >
      {items.map((item) => {
        const lang = item.detected_language ?? (item.language === 'auto' ? null : item.language);
        return (
          <li
            key={item.id}
            draggable
            onDragStart={(e) => {
              const ids = selected.has(item.id) ? [...selected] : [item.id];
              e.dataTransfer.setData(DRAG_TYPE, JSON.stringify(ids));
              e.dataTransfer.effectAllowed = 'move';
            }}
            className={`flex items-center gap-3 px-3 py-3 sm:px-4 ${selected.has(item.id) ? 'bg-brand-50/60' : ''}`}
            data-transcript={item.name}
          >
            <input
              type="checkbox"
              checked={selected.has(item.id)}
              onChange={() => onToggle(item.id)}
              aria-label={t('workspace.select', { name: item.name })}
              className="h-4 w-4 shrink-0 rounded border-slate-300"
            />
            <div className="min-w-0 flex-1">
              {/* Long names take two lines at most; the full name is in the tooltip. */}
              <Link
                to={to(`/transcript/${item.id}`)}
                title={item.name}
                className="line-clamp-2 font-medium [overflow-wrap:anywhere] text-slate-900 hover:text-brand-600"
              >
                {item.name}
              </Link>
              <p className="text-xs [overflow-wrap:anywhere] text-slate-500">
                {fmt.isoDate(item.created_at)}
                {item.duration !== null ? ` · ${fmt.duration(item.duration)}` : ''}
                {lang ? ` · ${nameOf(lang)}` : ''}
                {item.error ? ` · ${t(item.error.message)}` : ''}
              </p>
              {item.snippet ? <SnippetLink to={to(`/transcript/${item.id}`)} snippet={item.snippet} /> : null}
            </div>
            <StatusBadge status={item.status} progress={item.progress} stage={item.stage} />
          </li>
        );
      })}
    </ul>
  );
}
