import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { EXPORT_SKIPPED_HEADER } from '../../../common/exports';
import type { FolderJson } from '../../../common/folder-types';
import type { LockedFormat } from '../../../common/ranks';
import { ExportControl } from './export-control';

const control =
  'rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-800 focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none';
const button =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

/** Select all on the page; with a selection: move it to a folder, export it as a zip, delete it. */
export function BulkBar({
  ids,
  nameOf,
  selected,
  onSelect,
  folders,
  formats,
  locked,
  onMove,
  onDelete,
}: {
  /** The transcripts on this page. */
  ids: string[];
  /** A transcript's name on this page, to say which ones an export left out. */
  nameOf: (id: string) => string | undefined;
  selected: Set<string>;
  onSelect: (ids: Set<string>) => void;
  folders: FolderJson[];
  formats: readonly string[];
  locked: readonly LockedFormat[];
  onMove: (ids: string[], folderId: string | null) => void;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  const allSelected = ids.length > 0 && ids.every((id) => selected.has(id));
  // The zip holds the finished transcripts; the server names the unfinished ones it left out.
  const sayWhatWasSkipped = (headers: Headers) => {
    const skipped = (headers.get(EXPORT_SKIPPED_HEADER) ?? '').split(',').filter(Boolean);
    if (skipped.length === 0) return;
    const names = new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(
      skipped.map((id) => nameOf(id) ?? id),
    );
    toast.warning(t('workspace.exportSkipped', { count: skipped.length, names }));
  };
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm" data-testid="bulk">
      <label className="flex items-center gap-2 px-1 text-slate-700">
        <input
          type="checkbox"
          checked={allSelected}
          onChange={() => onSelect(allSelected ? new Set() : new Set(ids))}
          className="h-4 w-4 rounded border-slate-300"
        />
        {selected.size > 0 ? t('workspace.selected', { count: selected.size }) : t('workspace.selectAll')}
      </label>
      {selected.size > 0 ? (
        <>
          <select
            aria-label={t('workspace.moveTo')}
            value=""
            onChange={(e) =>
              e.target.value && onMove([...selected], e.target.value === 'root' ? null : e.target.value)
            }
            className={control}
          >
            <option value="">{t('workspace.moveTo')}</option>
            <option value="root">{t('workspace.allTranscripts')}</option>
            {folders.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
          <ExportControl
            formats={formats}
            locked={locked}
            offerTimestamps={false}
            onDownloaded={sayWhatWasSkipped}
            request={({ format }) => ({
              url: '/self-api/v1/transcripts/export',
              init: {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: JSON.stringify({ ids: [...selected], format, timestamps: true }),
              },
            })}
          />
          <button type="button" className={`${button} text-red-700`} onClick={onDelete}>
            {t('workspace.delete')}
          </button>
        </>
      ) : null}
    </div>
  );
}
