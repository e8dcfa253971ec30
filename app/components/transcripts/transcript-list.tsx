import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDuration } from '../../../common/format';
import type { TranscriptJson } from '../../../common/transcript-types';
import { useLocalePath } from '../../lib/use-locale';
import { useLanguageName } from './language-select';
import { StatusBadge } from './status-badge';

export function TranscriptList({ items }: { items: TranscriptJson[] }) {
  const { t } = useTranslation();
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
          <li key={item.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 sm:flex-nowrap">
            <div className="min-w-0 flex-1">
              <Link
                to={to(`/transcript/${item.id}`)}
                className="block truncate font-medium text-slate-900 hover:text-brand-600"
              >
                {item.name}
              </Link>
              <p className="text-xs text-slate-500">
                {formatDate(Date.parse(item.created_at) / 1000)}
                {item.duration !== null ? ` · ${formatDuration(item.duration)}` : ''}
                {lang ? ` · ${nameOf(lang)}` : ''}
                {item.error ? ` · ${t(item.error.message)}` : ''}
              </p>
            </div>
            <StatusBadge status={item.status} progress={item.progress} />
          </li>
        );
      })}
    </ul>
  );
}
