import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { validUrl } from '../../../common/validators';

/**
 * A link to import (a media file, or a page when the server has yt-dlp). `onSubmit` resolves to
 * the refusal, translated, or null once the link is accepted.
 */
export function LinkForm({
  id,
  onSubmit,
}: {
  id: string;
  onSubmit: (url: string) => Promise<string | null>;
}) {
  const { t } = useTranslation();
  const [link, setLink] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  const [linkBusy, setLinkBusy] = useState(false);

  const importLink = async () => {
    const url = link.trim();
    if (!validUrl(url)) return setLinkError(t('validation.url'));
    setLinkBusy(true);
    setLinkError(null);
    const refused = await onSubmit(url);
    setLinkBusy(false);
    if (refused) setLinkError(refused);
    else setLink('');
  };

  return (
    <form
      method="post"
      className="mt-4"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void importLink();
      }}
    >
      <label htmlFor={`${id}-link`} className="mb-1 block text-sm font-medium text-slate-700">
        {t('transcripts.link.title')}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          id={`${id}-link`}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          value={link}
          onChange={(e) => {
            setLink(e.target.value);
            if (linkError) setLinkError(null);
          }}
          placeholder="https://"
          aria-label={t('transcripts.link.label')}
          aria-invalid={linkError ? true : undefined}
          aria-describedby={`${id}-link-help`}
          className={`min-w-0 flex-1 rounded-md border bg-white px-3 py-2 text-sm ${
            linkError ? 'border-red-500' : 'border-slate-300'
          }`}
          data-testid="link-input"
        />
        <button
          type="submit"
          disabled={linkBusy || link.trim() === ''}
          className="shrink-0 rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-60"
          data-testid="link-submit"
        >
          {t('transcripts.link.submit')}
        </button>
      </div>
      <p id={`${id}-link-help`} className="mt-1 text-xs">
        {linkError ? (
          <span className="text-red-700" role="alert" data-testid="link-error">
            {linkError}
          </span>
        ) : (
          <span className="text-slate-500">{t('transcripts.link.hint')}</span>
        )}
      </p>
    </form>
  );
}
