// Which speech-to-text model transcribes which language (docs/decisions/0031-engines-per-language.md).
// The best open model a small machine runs per language: NVIDIA Parakeet TDT 0.6B v3 for its 25
// European languages, SenseVoice-Small for Chinese, Cantonese, Japanese and Korean, Whisper for
// every other language and for translation to English. Both the form and the server use this.

/** The local model families. Whisper is always there; the others can be turned off. */
export const ENGINE_FAMILIES = ['whisper', 'parakeet', 'sense-voice'] as const;
export type EngineFamily = (typeof ENGINE_FAMILIES)[number];

/** What a run may ask for: the best model for its language, or one family explicitly. */
export const ENGINE_CHOICES = ['auto', ...ENGINE_FAMILIES] as const;
export type EngineChoice = (typeof ENGINE_CHOICES)[number];

/** Parakeet TDT 0.6B v3's languages (its model card), as Whisper codes. */
export const PARAKEET_LANGUAGES: readonly string[] = [
  'bg', 'hr', 'cs', 'da', 'nl', 'en', 'et', 'fi', 'fr', 'de', 'el', 'hu', 'it',
  'lv', 'lt', 'mt', 'pl', 'pt', 'ro', 'sk', 'sl', 'es', 'sv', 'ru', 'uk',
]; // prettier-ignore

/** SenseVoice-Small's languages besides English (which Parakeet does better), as Whisper codes. */
export const SENSE_VOICE_LANGUAGES: readonly string[] = ['zh', 'yue', 'ja', 'ko'];

/** Whether a family can transcribe a language ('auto': it can find the language itself). */
export function familySpeaks(family: EngineFamily, language: string): boolean {
  if (family === 'whisper' || language === 'auto') return true;
  if (family === 'parakeet') return PARAKEET_LANGUAGES.includes(language);
  return SENSE_VOICE_LANGUAGES.includes(language) || language === 'en';
}

/** The best family for a known language among those turned on (Whisper when none fits). */
export function familyForLanguage(language: string, enabled: readonly EngineFamily[]): EngineFamily {
  if (enabled.includes('parakeet') && PARAKEET_LANGUAGES.includes(language)) return 'parakeet';
  if (enabled.includes('sense-voice') && SENSE_VOICE_LANGUAGES.includes(language)) return 'sense-voice';
  return 'whisper';
}

/** Why a run's engine choice cannot be honoured (a validation message key), or null when it can. */
export function engineChoiceProblem(opts: {
  engine: EngineChoice;
  language: string;
  translate: boolean;
}): 'validation.engineTranslate' | 'validation.engineLanguage' | null {
  if (opts.engine === 'auto' || opts.engine === 'whisper') return null;
  if (opts.translate) return 'validation.engineTranslate';
  return familySpeaks(opts.engine, opts.language) ? null : 'validation.engineLanguage';
}

/** The local models' names as their makers write them. */
const MODEL_LABELS: Record<string, string> = {
  'parakeet-tdt-0.6b-v3-int8': 'Parakeet TDT 0.6B v3',
  'sense-voice-small-int8': 'SenseVoice Small',
};

/**
 * A transcript's model id ('whisper-base', 'parakeet-tdt-0.6b-v3-int8' …) as a reader knows it
 * ('Whisper base', 'Parakeet TDT 0.6B v3'); an id we don't know (a hosted API's) as it is.
 */
export function modelLabel(model: string): string {
  const known = MODEL_LABELS[model];
  if (known) return known;
  const whisper = /^whisper-(.+)$/.exec(model);
  return whisper ? `Whisper ${whisper[1]}` : model;
}
