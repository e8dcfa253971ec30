import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranscriptJson } from '../../../common/transcript-types';
import { useRunOptions } from '../../lib/use-run-options';
import { useUploads } from '../../lib/use-uploads';
import { DropZone } from './drop-zone';
import { LinkForm } from './link-form';
import { RunOptionsFields } from './run-options-fields';
import { UploadRow } from './upload-row';

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
  const options = useRunOptions();
  const { items, add, addLink, cancel, dismiss } = useUploads(onCreated);
  const upload = () => ({
    run: options.run(folderId),
    maxBytes: maxFileMb === null ? null : maxFileMb * 1024 * 1024,
  });

  return (
    <section
      id="upload"
      aria-labelledby={`${id}-title`}
      className="scroll-mt-20 rounded-2xl border border-slate-200 bg-slate-50/60 p-4 sm:p-5"
    >
      <h2 id={`${id}-title`} className="text-base font-semibold text-slate-900">
        {t('transcripts.upload.title')}
      </h2>
      <RunOptionsFields id={id} form={options.form} set={options.set} />
      <DropZone
        maxFileMb={maxFileMb}
        onFiles={(files) => {
          if (files?.length) add([...files], upload());
        }}
      />
      <LinkForm id={id} onSubmit={(url) => addLink(url, upload())} />
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
