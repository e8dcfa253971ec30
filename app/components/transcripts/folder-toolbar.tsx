import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { FolderJson } from '../../../common/folder-types';
import { api } from '../../lib/api';
import { useLocalePath } from '../../lib/use-locale';

const button =
  'rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

/** A folder page's own actions: rename it, or delete it (moving its transcripts out, or with them). */
export function FolderToolbar({ folder, onRenamed }: { folder: FolderJson; onRenamed: () => void }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const navigate = useNavigate();
  const [deleting, setDeleting] = useState(false);

  const rename = async () => {
    const typed = window.prompt(t('workspace.renameFolder'), folder.name);
    if (typed === null) return;
    const name = typed.trim();
    if (!name) {
      toast.error(t('workspace.folderNameRequired'));
      return;
    }
    if (name === folder.name) return;
    try {
      await api.patch(`/self-api/v1/folders/${folder.id}`, { name });
      void navigate('.', { replace: true });
      onRenamed();
    } catch {
      // shown by the API client
    }
  };

  const remove = async (contents: 'move' | 'delete') => {
    try {
      await api.request('DELETE', `/self-api/v1/folders/${folder.id}`, { query: { contents } });
      toast.success(t('workspace.folderDeleted'));
      void navigate(to('/dashboard'));
    } catch {
      // shown by the API client
    }
  };

  return (
    <div className="-mt-4 mb-6 flex flex-wrap items-center gap-2">
      <button type="button" className={button} onClick={() => void rename()}>
        {t('workspace.renameFolder')}
      </button>
      {deleting ? (
        <span
          role="group"
          className="flex flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-1.5 text-sm"
        >
          <span className="text-red-800">{t('workspace.deleteFolderAsk')}</span>
          <button type="button" className={button} onClick={() => void remove('move')}>
            {t('workspace.deleteFolderMove')}
          </button>
          <button type="button" className={`${button} text-red-700`} onClick={() => void remove('delete')}>
            {t('workspace.deleteFolderAll')}
          </button>
          <button type="button" className="px-2 text-slate-600" onClick={() => setDeleting(false)}>
            {t('common.cancel')}
          </button>
        </span>
      ) : (
        <button type="button" className={`${button} text-red-700`} onClick={() => setDeleting(true)}>
          {t('workspace.deleteFolder')}
        </button>
      )}
    </div>
  );
}
