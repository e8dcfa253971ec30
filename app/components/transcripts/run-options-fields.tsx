import { useTranslation } from 'react-i18next';
import { ENGINE_CHOICES, engineChoiceProblem, type EngineChoice } from '../../../common/engines';
import { MAX_EXPECTED_SPEAKERS } from '../../../common/run-options';
import type { RunOptionsForm } from '../../lib/use-run-options';
import { LanguageSelect } from './language-select';

/** One upload option: a checkbox and its label. */
export function OptionBox({
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

const ENGINE_LABELS: Record<EngineChoice, string> = {
  auto: 'transcripts.upload.engineAuto',
  whisper: 'transcripts.upload.engineWhisper',
  parakeet: 'transcripts.upload.engineParakeet',
  'sense-voice': 'transcripts.upload.engineSenseVoice',
};

/** The model family: the best for the language, or one that speaks it (only Whisper translates). */
function EngineSelect({
  id,
  form,
  set,
}: {
  id: string;
  form: RunOptionsForm;
  set: (patch: Partial<RunOptionsForm>) => void;
}) {
  const { t } = useTranslation();
  return (
    <label className="mt-2 block text-sm">
      <span className="mb-1 block font-medium text-slate-700">{t('transcripts.upload.engine')}</span>
      <select
        id={`${id}-engine`}
        value={form.engine}
        onChange={(e) => set({ engine: e.target.value as EngineChoice })}
        className="w-full rounded-md border border-slate-300 px-2 py-1.5 sm:w-auto"
        data-testid="engine-select"
      >
        {ENGINE_CHOICES.map((engine) => (
          <option key={engine} value={engine} disabled={engineChoiceProblem({ ...form, engine }) !== null}>
            {t(ENGINE_LABELS[engine])}
          </option>
        ))}
      </select>
      {form.translate ? (
        <span className="mt-1 block text-xs text-slate-500" data-testid="translate-whisper-only">
          {t('transcripts.upload.translateWhisperOnly')}
        </span>
      ) : null}
    </label>
  );
}

/** How the files and links added below are transcribed: language, translation, model, speech, speakers. */
export function RunOptionsFields({
  id,
  form,
  set,
}: {
  id: string;
  form: RunOptionsForm;
  set: (patch: Partial<RunOptionsForm>) => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <div className="mt-3 grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <label className="block text-sm">
          <span className="mb-1 block font-medium text-slate-700">{t('transcripts.upload.language')}</span>
          <LanguageSelect
            id={`${id}-lang`}
            value={form.language}
            onChange={(language) => set({ language })}
          />
        </label>
        <OptionBox
          className="pb-2 text-sm text-slate-700"
          checked={form.translate}
          onChange={(translate) => set({ translate })}
          label={t('transcripts.upload.translate')}
        />
      </div>
      <EngineSelect id={id} form={form} set={set} />
      <OptionBox
        className="mt-2 text-sm text-slate-700"
        checked={form.detectSpeech}
        onChange={(detectSpeech) => set({ detectSpeech })}
        label={t('transcripts.upload.detectSpeech')}
        testId="detect-speech"
      />
      <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-slate-700">
        <OptionBox
          checked={form.detectSpeakers}
          onChange={(detectSpeakers) => set({ detectSpeakers })}
          label={t('transcripts.upload.detectSpeakers')}
          testId="detect-speakers"
        />
        {form.detectSpeakers ? (
          <label className="flex items-center gap-2">
            {t('transcripts.upload.speakerCount')}
            <input
              type="number"
              min={1}
              max={MAX_EXPECTED_SPEAKERS}
              inputMode="numeric"
              value={form.speakerCount}
              placeholder={t('transcripts.upload.speakerCountAuto')}
              onChange={(e) => set({ speakerCount: e.target.value })}
              className="w-24 rounded-md border border-slate-300 px-2 py-1"
              data-testid="speaker-count"
            />
          </label>
        ) : null}
      </div>
    </>
  );
}
