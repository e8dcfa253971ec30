import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../../lib/use-format';

const ACCEPT = 'video/*,audio/*,.mkv,.avi,.flac,.m4a,.ogg,.opus,.srt,.vtt';

/** Where files are dropped or chosen; each one goes up as soon as it is chosen. */
export function DropZone({
  maxFileMb,
  onFiles,
}: {
  maxFileMb: number | null;
  onFiles: (files: FileList | null) => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  return (
    <div
      onDragOver={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        onFiles(e.dataTransfer.files);
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
          : `${t('transcripts.upload.formats')} ${t('transcripts.upload.limit', { size: fmt.fileSizeMb(maxFileMb) })}`}
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
          onFiles(e.target.files);
          e.target.value = '';
        }}
      />
    </div>
  );
}
