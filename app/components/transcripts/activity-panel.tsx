import { useTranslation } from 'react-i18next';
import { useApiGet } from '../../lib/use-api-get';
import { useFormat } from '../../lib/use-format';
import type { ActivityKind } from '../../../common/record-states';

interface ActivityJson {
  id: string;
  kind: ActivityKind;
  at: string;
  by: { id: string; name: string } | null;
}

/** Who uploaded, edited, exported, shared and commented on a transcript, newest first. */
export function ActivityPanel({ transcriptId, version }: { transcriptId: string; version: number }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const data = useApiGet<{ items: ActivityJson[] }>(
    `/self-api/v1/transcripts/${transcriptId}/activity`,
    undefined,
    version,
  );
  const items = data?.items ?? [];
  return (
    <details className="rounded-xl border border-slate-200 bg-white p-4" data-testid="activity">
      <summary className="cursor-pointer text-sm font-semibold text-slate-900">{t('activity.title')}</summary>
      {data && items.length === 0 ? (
        <p className="mt-2 text-sm text-slate-500">{t('activity.empty')}</p>
      ) : null}
      <ol className="mt-2 space-y-1.5 text-sm text-slate-700">
        {items.map((a) => (
          <li key={a.id} className="flex flex-wrap justify-between gap-x-3">
            <span>{t(`activity.kinds.${a.kind}`, { name: a.by?.name ?? t('activity.someone') })}</span>
            <span className="text-xs text-slate-500">{fmt.isoDate(a.at)}</span>
          </li>
        ))}
      </ol>
    </details>
  );
}
