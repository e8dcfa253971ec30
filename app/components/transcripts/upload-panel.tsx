import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { TranscriptJson } from '../../../common/transcript-types';
import { validUrl } from '../../../common/validators';
import { MAX_EXPECTED_SPEAKERS } from '../../../common/run-options';
import { useLocalePath } from '../../lib/use-locale';
import { useUploads, type UploadItem } from '../../lib/use-uploads';
import { LanguageSelect } from './language-select';
import { ProgressBar, StatusBadge } from './status-badge';

const ACCEPT = 'video/*,audio/*,.mkv,.avi,.flac,.m4a,.ogg,.opus,.srt,.vtt';

function formatMb(bytes: number) {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}

function UploadRow({
  item,
  live,
  onCancel,
  onDismiss,
}: {
  item: UploadItem;
  /** The transcript as the list shows it now (its job moves on after the upload). */
  live?: TranscriptJson;
  onCancel(): void;
  onDismiss(): void;
}) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const active = item.phase === 'uploading' || item.phase === 'creating';
  const transcript = live ?? item.transcript;
  // A stored file that is not usable media, or a job that failed since, shows its reason.
  const refused = transcript?.status === 'failed' ? transcript.error : null;
  const failed = item.phase === 'failed' || !!refused;
  const message =
    item.phase === 'failed'
      ? item.error
      : refused
        ? t(refused.message)
        : item.kind === 'link'
          ? t('transcripts.link.source')
          : t(`transcripts.upload.phase.${transcript?.source === 'import' ? 'imported' : item.phase}`, {
              percent: item.percent,
              size: formatMb(item.size),
            });
  return (
    <li className="rounded-lg border border-slate-200 bg-white px-4 py-3" data-upload={item.phase}>
      <div className="flex items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate text-sm font-medium text-slate-900" title={item.name}>
            {item.name}
          </p>
          <p
            className={`text-xs ${failed ? 'text-red-700' : 'text-slate-500'}`}
            role={failed ? 'alert' : undefined}
          >
            {message}
          </p>
          {item.phase === 'failed' && item.planLimit ? (
            <Link to={to('/pricing')} className="text-xs font-semibold text-brand-700 hover:underline">
              {t('billing.seePlans')}
            </Link>
          ) : null}
        </div>
        {transcript && transcript.source !== 'import' && !refused ? (
          // The job's own state, as the list shows it: the row never says more than it knows.
          <StatusBadge status={transcript.status} progress={transcript.progress} stage={transcript.stage} />
        ) : null}
        {active ? (
          <button
            type="button"
            onClick={onCancel}
            className="shrink-0 rounded-md px-2 py-1 text-sm text-slate-600 hover:bg-slate-100"
          >
            {t('common.cancel')}
          </button>
        ) : (
          <div className="flex shrink-0 items-center gap-1">
            {item.transcript ? (
              <Link
                to={to(`/transcript/${item.transcript.id}`)}
                className="rounded-md px-2 py-1 text-sm font-medium text-brand-600 hover:bg-brand-50"
              >
                {t('transcripts.open')}
              </Link>
            ) : null}
            {/* Finished and failed rows can be cleared from the list (the transcript stays). */}
            <button
              type="button"
              onClick={onDismiss}
              aria-label={t('transcripts.upload.dismiss', { name: item.name })}
              title={t('common.close')}
              data-testid="upload-dismiss"
              className="rounded-md px-2 py-1 text-lg leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800"
            >
              ×
            </button>
          </div>
        )}
      </div>
      {item.phase === 'uploading' ? (
        <div className="mt-2">
          <ProgressBar
            percent={item.percent}
            label={t('transcripts.upload.progressLabel', { name: item.name })}
          />
        </div>
      ) : null}
    </li>
  );
}

/** One upload option: a checkbox and its label. */
function OptionBox({
  checked,
  onChange,
  label,
  testId,
  className = '',
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  testId?: string;
  className?: string;
}) {
  return (
    <label className={`flex items-center gap-2 ${className}`}>
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="h-4 w-4 rounded border-slate-300"
        data-testid={testId}
      />
      {label}
    </label>
  );
}

/**
 * Drop zone and per-file upload list. Files go up as soon as they are chosen, with the language
 * and translation options set above the zone.
 */
export function UploadPanel({
  maxFileMb,
  folderId,
  onCreated,
  live,
}: {
  maxFileMb: number | null;
  folderId?: string | null;
  onCreated: (t: TranscriptJson) => void;
  /** Transcripts as last listed, by id: each row follows its job. */
  live?: ReadonlyMap<string, TranscriptJson>;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [language, setLanguage] = useState('auto');
  const [translate, setTranslate] = useState(false);
  const [detectSpeech, setDetectSpeech] = useState(true);
  const [detectSpeakers, setDetectSpeakers] = useState(false);
  const [speakerCount, setSpeakerCount] = useState('');
  const [over, setOver] = useState(false);
  const { items, add, addLink, cancel, dismiss } = useUploads(onCreated);
  const [link, setLink] = useState('');
  const [linkError, setLinkError] = useState<string | null>(null);
  const [linkBusy, setLinkBusy] = useState(false);

  const options = () => ({
    run: {
      language,
      translate,
      detect_speech: detectSpeech,
      detect_speakers: detectSpeakers,
      speaker_count:
        detectSpeakers && /^\d+$/.test(speakerCount)
          ? Math.min(MAX_EXPECTED_SPEAKERS, Math.max(1, Number(speakerCount)))
          : null,
      folder_id: folderId ?? null,
    },
    maxBytes: maxFileMb === null ? null : maxFileMb * 1024 * 1024,
  });

  const send = (files: FileList | null) => {
    if (!files?.length) return;
    add([...files], options());
  };

  const importLink = async () => {
    const url = link.trim();
    if (!validUrl(url)) return setLinkError(t('validation.url'));
    setLinkBusy(true);
    setLinkError(null);
    const refused = await addLink(url, options());
    setLinkBusy(false);
    if (refused) setLinkError(refused);
    else setLink('');
  };

  return (
    <section
      id="upload"
      aria-labelledby={`${id}-title`}
      className="scroll-mt-20 rounded-2xl border border-slate-200 bg-slate-50/60 p-4 sm:p-5"
    >
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {t('transcripts.upload.title')}
      </h2>
      <div className="mt-3 grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <label className="block text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('transcripts.upload.language')}</span>
          <LanguageSelect id={`${id}-lang`} value={language} onChange={setLanguage} />
        </label>
        <OptionBox
          className="pb-2 text-sm text-slate-700"
          checked={translate}
          onChange={setTranslate}
          label={t('transcripts.upload.translate')}
        />
      </div>
      <OptionBox
        className="mt-2 text-sm text-slate-700"
        checked={detectSpeech}
        onChange={setDetectSpeech}
        label={t('transcripts.upload.detectSpeech')}
        testId="detect-speech"
      />
      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-700">
        <OptionBox
          checked={detectSpeakers}
          onChange={setDetectSpeakers}
          label={t('transcripts.upload.detectSpeakers')}
          testId="detect-speakers"
        />
        {detectSpeakers ? (
          <label className="flex items-center gap-2">
            {t('transcripts.upload.speakerCount')}
            <input
              type="number"
              min={1}
              max={MAX_EXPECTED_SPEAKERS}
              inputMode="numeric"
              value={speakerCount}
              placeholder={t('transcripts.upload.speakerCountAuto')}
              onChange={(e) => setSpeakerCount(e.target.value)}
              className="w-24 rounded-md border border-slate-300 px-2 py-1"
              data-testid="speaker-count"
            />
          </label>
        ) : null}
      </div>
      <div
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          send(e.dataTransfer.files);
        }}
        className={`mt-4 flex flex-col items-center rounded-xl border-2 border-dashed px-4 py-8 text-center transition-colors ${
          over ? 'border-brand-500 bg-brand-50' : 'border-slate-300 bg-white'
        }`}
      >
        <svg viewBox="0 0 48 48" className="h-10 w-10 text-brand-500" aria-hidden>
          <path fill="currentColor" d="M24 6l10 10h-7v12h-6V16h-7L24 6zM8 30h6v6h20v-6h6v12H8V30z" />
        </svg>
        <p className="mt-3 text-sm text-slate-700">
          {t('transcripts.upload.drop')}{' '}
          <button
            type="button"
            onClick={() => input.current?.click()}
            className="font-semibold text-brand-600 underline-offset-2 hover:underline"
          >
            {t('transcripts.upload.browse')}
          </button>
        </p>
        <p className="mt-1 max-w-md text-xs text-slate-500">
          {maxFileMb === null
            ? t('transcripts.upload.formats')
            : `${t('transcripts.upload.formats')} ${t('transcripts.upload.limit', { size: maxFileMb })}`}
        </p>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="sr-only"
          data-testid="upload-input"
          aria-label={t('transcripts.upload.browse')}
          onChange={(e) => {
            send(e.target.files);
            e.target.value = '';
          }}
        />
      </div>
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
      {items.length > 0 ? (
        <ul className="mt-4 space-y-2">
          {items.map((item) => (
            <UploadRow
              key={item.key}
              item={item}
              live={item.transcript ? live?.get(item.transcript.id) : undefined}
              onCancel={() => cancel(item.key)}
              onDismiss={() => dismiss(item.key)}
            />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
