import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, apiUrl } from '../../lib/api';
import { useFormat } from '../../lib/use-format';
import { RENDER_BACKGROUND_MAX_BYTES } from '../../../common/render-options';
import type { RenderChoices } from './render-style-fields';

const PATH = '/self-api/v1/render-background';
const small =
  'cursor-pointer rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 has-[:focus-visible]:ring-2 disabled:opacity-50';

/**
 * An audio-only source's background: a colour, or the workspace's picture (uploaded here, checked
 * by the server, kept for the workspace); the waveform and captions are drawn over either.
 */
export function RenderBackgroundFields({
  choices,
  onChange,
  canEdit,
}: {
  choices: RenderChoices;
  onChange: (next: RenderChoices) => void;
  /** Editors and up may replace or remove the workspace's picture. */
  canEdit: boolean;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  // Bumped after an upload or a removal so the thumbnail is fetched again.
  const [version, setVersion] = useState(0);
  const [has, setHas] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);

  const upload = async (file: File) => {
    const form = new FormData();
    form.set('file', file);
    setBusy(true);
    try {
      await api.request('PUT', PATH, { form });
      setHas(null);
      setVersion((v) => v + 1);
      onChange({ ...choices, background_image: true });
    } catch {
      // refused: the API client showed why, translated
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    setBusy(true);
    try {
      await api.del(PATH);
      setHas(false);
      setVersion((v) => v + 1);
      onChange({ ...choices, background_image: false });
    } catch {
      // shown by the API client
    } finally {
      setBusy(false);
    }
  };

  return (
    <fieldset
      className="flex flex-col gap-1.5 text-xs font-medium text-slate-600"
      data-testid="render-background"
    >
      <legend>{t('render.background')}</legend>
      <label className="flex flex-wrap items-center gap-2">
        <input
          type="radio"
          name="render-background"
          value="color"
          checked={!choices.background_image}
          onChange={() => onChange({ ...choices, background_image: false })}
        />
        {t('render.backgroundColor')}
        <input
          type="color"
          value={choices.background}
          onChange={(e) => onChange({ ...choices, background: e.target.value, background_image: false })}
          aria-label={t('render.backgroundColor')}
          className="h-7 w-9 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
        />
      </label>
      <label className="flex items-center gap-2">
        <input
          type="radio"
          name="render-background"
          value="image"
          checked={choices.background_image}
          onChange={() => onChange({ ...choices, background_image: true })}
          data-testid="render-background-image"
        />
        {t('render.backgroundImage')}
      </label>
      {choices.background_image ? (
        <div className="flex flex-wrap items-center gap-2 pl-5">
          {has !== false ? (
            <img
              key={version}
              src={apiUrl(`${PATH}?v=${version}`)}
              alt={t('render.backgroundAlt')}
              onLoad={() => setHas(true)}
              onError={() => setHas(false)}
              className={`h-12 w-20 rounded border border-slate-300 object-cover ${has ? '' : 'hidden'}`}
              data-testid="render-background-thumb"
            />
          ) : (
            <span className="font-normal text-slate-500">{t('render.backgroundNone')}</span>
          )}
          {canEdit ? (
            <>
              <label className={small}>
                {busy
                  ? t('render.backgroundUploading')
                  : has
                    ? t('render.backgroundReplace')
                    : t('render.backgroundUpload')}
                <input
                  type="file"
                  accept="image/png,image/jpeg,image/webp"
                  className="sr-only"
                  disabled={busy}
                  onChange={(e) => {
                    const file = e.target.files?.[0];
                    e.target.value = '';
                    if (file) void upload(file);
                  }}
                  data-testid="render-background-file"
                />
              </label>
              {has ? (
                <button type="button" className={small} disabled={busy} onClick={() => void remove()}>
                  {t('render.backgroundRemove')}
                </button>
              ) : null}
            </>
          ) : null}
        </div>
      ) : null}
      <span className="font-normal text-slate-500">
        {t('render.backgroundHint')}
        {choices.background_image
          ? ` ${t('render.backgroundImageHint', { size: fmt.fileSize(RENDER_BACKGROUND_MAX_BYTES) })}`
          : ''}
      </span>
    </fieldset>
  );
}
