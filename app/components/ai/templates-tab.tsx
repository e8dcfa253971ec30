import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  builtinTemplates,
  MAX_TEMPLATE_INSTRUCTIONS,
  MAX_TEMPLATE_NAME,
  type TemplateJson,
} from '../../../common/ai-templates';
import { withoutNumberCites } from '../../../common/cited-markdown';
import type { InsightJson, InsightLanguage } from '../../../common/insights';
import { LOCALE_NAMES } from '../../../common/locales';
import { fileStem, saveText } from '../../lib/download';
import { useLocale } from '../../lib/use-locale';
import { useTemplates } from '../../lib/use-templates';
import { InsightFailed, StaleNote } from './insight-status';
import { LanguageOptions } from './language-options';
import { MarkdownView } from './markdown-view';

const small =
  'rounded-lg border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';
const primary =
  'rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50';
const input = 'mt-0.5 w-full rounded-lg border border-slate-300 bg-white px-2 py-1.5 text-sm';

/**
 * The Templates tab of the AI panel: pick a built-in or an own template, run it on this transcript,
 * watch the Markdown being written, copy or download it; write, edit and delete own templates.
 */
export function TemplatesTab({
  transcriptId,
  name,
  transcriptLanguage,
  onSeek,
  canGenerate,
}: {
  transcriptId: string;
  name: string;
  transcriptLanguage: string | null;
  onSeek: (seconds: number) => void;
  canGenerate: boolean;
}) {
  const { t } = useTranslation();
  const locale = useLocale();
  const { templates, outputs, loadFailed, streams, run, save, remove } = useTemplates(transcriptId, true);
  const [chosen, setChosen] = useState('show-notes');
  const [language, setLanguage] = useState<InsightLanguage | ''>('');
  const [asking, setAsking] = useState(false);
  const [editing, setEditing] = useState<TemplateJson | 'new' | null>(null);

  if (!templates || !outputs)
    return (
      <p className="text-sm text-slate-500">{loadFailed ? t('errors.requestError') : t('ai.loading')}</p>
    );

  // Built-ins in the page's language (the API answers in the account's; a page may differ).
  const builtin = builtinTemplates(locale);
  const all = [...builtin, ...templates.templates];
  const template = all.find((x) => x.id === chosen) ?? builtin[0]!;
  const output = outputs.find((o) => o.template === template.id) ?? null;
  const busy = asking || (!!output && (output.status === 'queued' || output.status === 'running'));
  const made = output?.markdown ? output : null;

  const go = async () => {
    setAsking(true);
    try {
      // Unset: the template's own language, else the page's.
      await run(template.id, language || template.language || locale);
    } catch {
      // the API client has shown why
    } finally {
      setAsking(false);
    }
  };
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(t('ai.copied'));
    } catch {
      toast.error(t('editor.copyFailed'));
    }
  };
  const del = async () => {
    if (!window.confirm(t('ai.templates.deleteConfirm', { name: template.name }))) return;
    try {
      await remove(template.id);
      setChosen('show-notes');
    } catch {
      // shown by the API client
    }
  };

  return (
    <div className="space-y-3" data-testid="ai-templates">
      <div className="flex flex-wrap items-end gap-2">
        <label className="min-w-0 flex-1 text-xs text-slate-600">
          <span className="block">{t('ai.templates.template')}</span>
          <select
            value={template.id}
            onChange={(e) => setChosen(e.target.value)}
            className="mt-0.5 w-full rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
            data-testid="template-select"
          >
            <optgroup label={t('ai.templates.builtin')}>
              {builtin.map((x) => (
                <option key={x.id} value={x.id}>
                  {x.name}
                </option>
              ))}
            </optgroup>
            {templates.templates.length > 0 ? (
              <optgroup label={t('ai.templates.own')}>
                {templates.templates.map((x) => (
                  <option key={x.id} value={x.id}>
                    {x.name}
                  </option>
                ))}
              </optgroup>
            ) : null}
          </select>
        </label>
        {canGenerate ? (
          <div className="flex gap-1">
            <button
              type="button"
              className={small}
              onClick={() => setEditing('new')}
              data-testid="template-new"
            >
              {t('ai.templates.new')}
            </button>
            {!template.builtin ? (
              <>
                <button type="button" className={small} onClick={() => setEditing(template)}>
                  {t('ai.templates.edit')}
                </button>
                <button type="button" className={small} onClick={() => void del()}>
                  {t('ai.templates.delete')}
                </button>
              </>
            ) : null}
          </div>
        ) : null}
      </div>
      <details className="text-xs text-slate-600">
        <summary className="cursor-pointer select-none">{t('ai.templates.instructions')}</summary>
        <p
          className="mt-1 whitespace-pre-wrap break-words rounded-lg bg-slate-50 p-2"
          data-testid="template-instructions"
        >
          {template.instructions}
        </p>
      </details>

      {output?.status === 'failed' && !busy ? <InsightFailed insight={output} /> : null}
      {made?.stale && !busy && canGenerate ? <StaleNote busy={busy} onRegenerate={() => void go()} /> : null}
      {busy && output ? <TemplateProgress output={output} streamed={streams[output.id]?.text ?? ''} /> : null}
      {made && !busy ? (
        <>
          <MarkdownView markdown={made.markdown!} onSeek={onSeek} />
          <div className="flex flex-wrap gap-2">
            <button type="button" className={small} onClick={() => void copy(made.markdown!)}>
              {t('ai.copy')}
            </button>
            <button
              type="button"
              className={small}
              data-testid="template-download"
              onClick={() =>
                saveText(
                  `${made.markdown!}\n`,
                  `${fileStem(name)}-${fileStem(template.builtin ? template.id : template.name)}.md`,
                  'text/markdown',
                )
              }
            >
              {t('ai.downloadMarkdown')}
            </button>
          </div>
        </>
      ) : null}
      {!made && !busy && output?.status !== 'failed' ? (
        <p className="text-sm text-slate-600">{t('ai.templates.intro')}</p>
      ) : null}

      {canGenerate ? (
        <div className="flex flex-wrap items-end gap-2 border-t border-slate-100 pt-3">
          <label className="text-xs text-slate-600">
            <span className="block">{t('ai.language')}</span>
            <select
              value={language}
              onChange={(e) => setLanguage(e.target.value as InsightLanguage | '')}
              className="mt-0.5 max-w-[14rem] rounded-lg border border-slate-300 bg-white px-2 py-1 text-sm"
              data-testid="template-language"
            >
              <option value="">
                {template.language
                  ? t('ai.templates.languageOfTemplate', {
                      name:
                        template.language === 'transcript'
                          ? t('ai.languageTranscript')
                          : LOCALE_NAMES[template.language],
                    })
                  : t('ai.templates.languageDefault')}
              </option>
              <LanguageOptions transcriptLanguage={transcriptLanguage} />
            </select>
          </label>
          <button
            type="button"
            className={primary}
            disabled={busy}
            onClick={() => void go()}
            data-testid="template-run"
          >
            {made || output?.status === 'failed' ? t('ai.regenerate') : t('ai.templates.run')}
          </button>
        </div>
      ) : null}

      {editing ? (
        <TemplateDialog
          template={editing === 'new' ? null : editing}
          transcriptLanguage={transcriptLanguage}
          onClose={() => setEditing(null)}
          onSave={async (values) => {
            const saved = await save(values, editing === 'new' ? undefined : editing.id);
            setChosen(saved.id);
            setEditing(null);
            toast.success(t('ai.templates.saved'));
          }}
        />
      ) : null}
    </div>
  );
}

/** Where a run is, and the Markdown written so far (segment numbers left out until it is checked). */
function TemplateProgress({ output, streamed }: { output: InsightJson; streamed: string }) {
  const { t } = useTranslation();
  const label =
    output.status === 'queued'
      ? t('ai.stage.queued')
      : output.stage === 'preparing'
        ? t('ai.stage.preparing', { percent: output.progress })
        : output.stage === 'merging'
          ? t('ai.stage.merging')
          : t('ai.stage.reading', { percent: output.progress });
  const preview = withoutNumberCites(streamed);
  return (
    <div className="space-y-2" data-testid="ai-progress">
      <p role="status" className="flex items-center gap-2 text-sm text-slate-600">
        <span aria-hidden className="size-2 animate-pulse rounded-full bg-brand-500" />
        {label}
      </p>
      {preview.trim() ? (
        <div aria-live="polite" data-testid="ai-stream" className="text-slate-500 opacity-80">
          <MarkdownView markdown={preview} />
        </div>
      ) : null}
    </div>
  );
}

/** Writing or editing an own template, in a modal dialog. */
function TemplateDialog({
  template,
  transcriptLanguage,
  onClose,
  onSave,
}: {
  template: TemplateJson | null;
  transcriptLanguage: string | null;
  onClose: () => void;
  onSave: (values: { name: string; instructions: string; language: InsightLanguage | null }) => Promise<void>;
}) {
  const { t } = useTranslation();
  const dialog = useRef<HTMLDialogElement>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={dialog}
      onClose={onClose}
      aria-labelledby="template-dialog-title"
      className="w-[min(32rem,calc(100vw-2rem))] rounded-xl p-0 shadow-xl backdrop:bg-slate-900/40"
      data-testid="template-dialog"
    >
      <form
        method="post"
        className="space-y-3 p-4"
        onSubmit={async (e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          const lang = String(f.get('language') ?? '');
          setSaving(true);
          try {
            await onSave({
              name: String(f.get('name') ?? ''),
              instructions: String(f.get('instructions') ?? ''),
              language: lang ? (lang as InsightLanguage) : null,
            });
          } catch {
            // the API client has shown why
          } finally {
            setSaving(false);
          }
        }}
      >
        <h2 id="template-dialog-title" className="text-base font-semibold text-slate-900">
          {template ? t('ai.templates.editTitle') : t('ai.templates.newTitle')}
        </h2>
        <label className="block text-xs text-slate-600">
          <span className="block">{t('ai.templates.name')}</span>
          <input
            name="name"
            required
            maxLength={MAX_TEMPLATE_NAME}
            defaultValue={template?.name ?? ''}
            placeholder={t('ai.templates.namePlaceholder')}
            className={input}
            data-testid="template-name"
          />
        </label>
        <label className="block text-xs text-slate-600">
          <span className="block">{t('ai.templates.instructions')}</span>
          <textarea
            name="instructions"
            required
            rows={6}
            maxLength={MAX_TEMPLATE_INSTRUCTIONS}
            defaultValue={template?.instructions ?? ''}
            placeholder={t('ai.templates.instructionsPlaceholder')}
            className={input}
            data-testid="template-instructions-input"
          />
          <span className="mt-1 block text-slate-500">{t('ai.templates.instructionsHint')}</span>
        </label>
        <label className="block text-xs text-slate-600">
          <span className="block">{t('ai.language')}</span>
          <select name="language" defaultValue={template?.language ?? ''} className={input}>
            <option value="">{t('ai.templates.languageDefault')}</option>
            <LanguageOptions transcriptLanguage={transcriptLanguage} />
          </select>
        </label>
        <div className="flex justify-end gap-2 pt-1">
          <button type="button" className={small} onClick={() => dialog.current?.close()}>
            {t('ai.templates.cancel')}
          </button>
          <button type="submit" className={primary} disabled={saving} data-testid="template-save">
            {t('ai.templates.save')}
          </button>
        </div>
      </form>
    </dialog>
  );
}
