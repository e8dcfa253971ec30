import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FolderJson } from '../../../common/folder-types';
import { api } from '../../lib/api';
import { useLocalePath } from '../../lib/use-locale';

export const DRAG_TYPE = 'application/x-clipscribe-transcripts';

/** Folder navigation; each entry is also a drop target for dragged transcripts. */
export function FolderList({
  folders,
  current,
  onChanged,
  onDropTranscripts,
}: {
  folders: FolderJson[];
  current: string | null;
  onChanged: () => void;
  onDropTranscripts: (ids: string[], folderId: string | null) => void;
}) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const [creating, setCreating] = useState(false);
  const [name, setName] = useState('');
  const [over, setOver] = useState<string | null>(null);

  const [nameError, setNameError] = useState(false);

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    // A blank name is never silently ignored: say what is missing.
    if (!name.trim()) {
      setNameError(true);
      return;
    }
    try {
      await api.post('/self-api/v1/folders', { name: name.trim() });
      setName('');
      setCreating(false);
      onChanged();
    } catch {
      // the API client has shown the translated error
    }
  };

  const dropProps = (target: string | null) => ({
    onDragOver: (e: React.DragEvent) => {
      if (!e.dataTransfer.types.includes(DRAG_TYPE)) return;
      e.preventDefault();
      setOver(target ?? 'root');
    },
    onDragLeave: () => setOver(null),
    onDrop: (e: React.DragEvent) => {
      setOver(null);
      const raw = e.dataTransfer.getData(DRAG_TYPE);
      if (!raw) return;
      e.preventDefault();
      onDropTranscripts(JSON.parse(raw) as string[], target);
    },
  });
  const item = (active: boolean, target: string) =>
    `flex items-center justify-between gap-2 rounded-lg px-3 py-2 text-sm ${
      over === target
        ? 'bg-brand-100 ring-2 ring-brand-500'
        : active
          ? 'bg-brand-50 font-semibold text-brand-700'
          : 'text-slate-700 hover:bg-slate-100'
    }`;

  return (
    <nav aria-label={t('workspace.folders')} className="space-y-1" data-testid="folders">
      <Link to={to('/dashboard')} className={item(current === null, 'root')} {...dropProps(null)}>
        {t('workspace.allTranscripts')}
      </Link>
      {folders.map((f) => (
        <Link
          key={f.id}
          to={to(`/dashboard/folder/${f.id}`)}
          className={item(current === f.id, f.id)}
          data-folder={f.name}
          {...dropProps(f.id)}
        >
          <span className="flex min-w-0 items-center gap-2">
            <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0 text-slate-400" aria-hidden>
              <path
                fill="currentColor"
                d="M2 5a2 2 0 012-2h4l2 2h6a2 2 0 012 2v8a2 2 0 01-2 2H4a2 2 0 01-2-2V5z"
              />
            </svg>
            <span className="truncate">{f.name}</span>
          </span>
          <span className="text-xs text-slate-400">{f.transcript_count ?? ''}</span>
        </Link>
      ))}
      {creating ? (
        <form method="post" onSubmit={(e) => void create(e)} className="px-1 pt-1" noValidate>
          <div className="flex gap-1">
            <input
              autoFocus
              value={name}
              maxLength={100}
              onChange={(e) => {
                setName(e.target.value);
                setNameError(false);
              }}
              onKeyDown={(e) => e.key === 'Escape' && setCreating(false)}
              aria-label={t('workspace.folderName')}
              aria-invalid={nameError || undefined}
              aria-describedby={nameError ? 'folder-name-error' : undefined}
              placeholder={t('workspace.folderName')}
              className={`min-w-0 flex-1 rounded-md border px-2 py-1 text-sm ${nameError ? 'border-red-400' : 'border-slate-300'}`}
            />
            <button
              type="submit"
              className="rounded-md bg-brand-600 px-2 py-1 text-sm font-medium text-white"
            >
              {t('common.save')}
            </button>
          </div>
          {nameError ? (
            <p id="folder-name-error" role="alert" className="mt-1 px-1 text-xs text-red-600">
              {t('workspace.folderNameRequired')}
            </p>
          ) : null}
        </form>
      ) : (
        <button
          type="button"
          onClick={() => setCreating(true)}
          className="w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-brand-600 hover:bg-brand-50"
        >
          + {t('workspace.newFolder')}
        </button>
      )}
    </nav>
  );
}
