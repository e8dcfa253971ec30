import { useState } from 'react';
import { engineChoiceProblem, type EngineChoice } from '../../common/engines';
import { MAX_EXPECTED_SPEAKERS, type RunOptionsInput } from '../../common/run-options';

/** The run options as the upload form holds them (the expected speakers as typed). */
export interface RunOptionsForm {
  language: string;
  translate: boolean;
  detectSpeech: boolean;
  detectSpeakers: boolean;
  /** What was typed in the speaker count box ('' = find out). */
  speakerCount: string;
  /** The model family ('auto' = the best for the language). */
  engine: EngineChoice;
}

const DEFAULTS: RunOptionsForm = {
  language: 'auto',
  translate: false,
  detectSpeech: true,
  detectSpeakers: false,
  speakerCount: '',
  engine: 'auto',
};

/** The expected speaker count a box holds: a whole number clamped to 1–20, or null (find out). */
export function speakerCountOf(typed: string): number | null {
  return /^\d+$/.test(typed) ? Math.min(MAX_EXPECTED_SPEAKERS, Math.max(1, Number(typed))) : null;
}

/** The options chosen above the drop zone, and the run options they make (common/run-options.ts). */
export function useRunOptions() {
  const [form, setForm] = useState(DEFAULTS);
  return {
    form,
    set: (patch: Partial<RunOptionsForm>) =>
      setForm((f) => {
        const next = { ...f, ...patch };
        // A family that cannot do the new language (or translation) goes back to the best one.
        return engineChoiceProblem(next) ? { ...next, engine: 'auto' } : next;
      }),
    run: (folderId: string | null | undefined): RunOptionsInput => ({
      language: form.language,
      translate: form.translate,
      detect_speech: form.detectSpeech,
      detect_speakers: form.detectSpeakers,
      speaker_count: form.detectSpeakers ? speakerCountOf(form.speakerCount) : null,
      folder_id: folderId ?? null,
      engine: form.engine,
    }),
  };
}
