import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { GlossaryTermJson } from '../../../common/translation-types';
import { api } from '../../lib/api';
import { Modal } from './modal';

/** The glossary's limit (server/modules/translation/glossary.ts). */
const MAX_TERMS = 200;

interface Row extends GlossaryTermJson {
  key: number;
}

const input =
  'w-full min-w-0 rounded-md border border-slate-300 px-2 py-1.5 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none disabled:bg-slate-50 disabled:text-slate-400';

/**
 * The workspace's glossary, used by every translation: a term kept as it is ("ClipScribe") or
 * always translated one way ("Kubernetes → Kubernetes", "release → versión"). Saved as a whole.
 */
export function GlossaryDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<Row[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [nextKey, setNextKey] = useState(0);

  useEffect(() => {
    if (!open) return;
    let live = true;
    api
      .get<{ terms: GlossaryTermJson[] }>('/self-api/v1/glossary')
      .then((d) => {
        if (!live) return;
        setRows(d.terms.map((term, key) => ({ ...term, key })));
        setNextKey(d.terms.length);
      })
      .catch(() => live && setRows([]));
    return () => {
      live = false;
    };
  }, [open]);

  const update = (key: number, change: Partial<GlossaryTermJson>) =>
    setRows((list) => list?.map((r) => (r.key === key ? { ...r, ...change } : r)) ?? null);
  const add = () => {
    setRows((list) => [...(list ?? []), { key: nextKey, source: '', target: '' }]);
    setNextKey((k) => k + 1);
  };

  const save = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (!rows) return;
    // Rows left without a term are dropped; a translation left empty means "keep as is".
    const terms = rows
      .filter((r) => r.source.trim() !== '')
      .map((r) => ({ source: r.source.trim(), target: r.target?.trim() ? r.target.trim() : null }));
    setBusy(true);
    try {
      await api.put('/self-api/v1/glossary', { terms });
      toast.success(t('translation.glossary.saved'));
      onClose();
    } catch {
      // the API client has shown the translated reason
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open={open} onClose={onClose} title={t('translation.glossary.title')} testId="glossary-dialog">
      <p className="mb-3 text-sm text-slate-600">{t('translation.glossary.intro')}</p>
      <form method="post" onSubmit={(e) => void save(e)} className="flex min-h-0 flex-col">
        <div className="min-h-0 flex-1 overflow-y-auto">
          {rows === null ? (
            <p className="text-sm text-slate-500">{t('translation.glossary.loading')}</p>
          ) : rows.length === 0 ? (
            <p className="text-sm text-slate-500">{t('translation.glossary.empty')}</p>
          ) : (
            <ul className="space-y-2" data-testid="glossary-rows">
              {rows.map((r, i) => {
                const keep = r.target === null;
                return (
                  <li
                    key={r.key}
                    className="grid grid-cols-[1fr_auto] gap-x-2 gap-y-1 sm:grid-cols-[1fr_1fr_auto]"
                  >
                    <input
                      className={input}
                      value={r.source}
                      maxLength={100}
                      onChange={(e) => update(r.key, { source: e.target.value })}
                      aria-label={t('translation.glossary.term', { n: i + 1 })}
                      placeholder={t('translation.glossary.termPlaceholder')}
                      data-testid="glossary-source"
                    />
                    <button
                      type="button"
                      onClick={() => setRows((list) => list?.filter((x) => x.key !== r.key) ?? null)}
                      className="row-span-2 self-start rounded-md px-2 py-1.5 text-sm text-slate-500 hover:bg-slate-100 hover:text-red-700 sm:order-last sm:row-span-1"
                      aria-label={t('translation.glossary.remove', { term: r.source || String(i + 1) })}
                    >
                      ✕
                    </button>
                    <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1">
                      <input
                        className={`${input} flex-1 basis-32`}
                        value={r.target ?? ''}
                        disabled={keep}
                        maxLength={100}
                        onChange={(e) => update(r.key, { target: e.target.value })}
                        aria-label={t('translation.glossary.translation', { n: i + 1 })}
                        placeholder={keep ? r.source : t('translation.glossary.translationPlaceholder')}
                        data-testid="glossary-target"
                      />
                      <label className="flex items-center gap-1.5 text-xs whitespace-nowrap text-slate-600">
                        <input
                          type="checkbox"
                          checked={keep}
                          onChange={(e) => update(r.key, { target: e.target.checked ? null : '' })}
                          data-testid="glossary-keep"
                        />
                        {t('translation.glossary.keep')}
                      </label>
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </div>
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <button
            type="button"
            onClick={add}
            disabled={rows === null || rows.length >= MAX_TERMS}
            className="rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
            data-testid="glossary-add"
          >
            {t('translation.glossary.add')}
          </button>
          <span className="ml-auto flex gap-2">
            <button
              type="button"
              onClick={onClose}
              className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50"
            >
              {t('translation.cancel')}
            </button>
            <button
              type="submit"
              disabled={busy || rows === null}
              className="rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
              data-testid="glossary-save"
            >
              {t('translation.glossary.save')}
            </button>
          </span>
        </div>
      </form>
    </Modal>
  );
}
