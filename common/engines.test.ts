import { describe, expect, it } from 'vitest';
import {
  engineChoiceProblem,
  familyForLanguage,
  modelLabel,
  PARAKEET_LANGUAGES,
  SENSE_VOICE_LANGUAGES,
} from './engines';
import { isWhisperLanguage } from './whisper-languages';

describe('the model family per language', () => {
  it('is Parakeet for its 25 languages, SenseVoice for zh/yue/ja/ko, Whisper for the rest', () => {
    expect(PARAKEET_LANGUAGES).toHaveLength(25);
    for (const code of [...PARAKEET_LANGUAGES, ...SENSE_VOICE_LANGUAGES])
      expect(isWhisperLanguage(code)).toBe(true);
    const all = ['whisper', 'parakeet', 'sense-voice'] as const;
    expect(familyForLanguage('de', all)).toBe('parakeet');
    expect(familyForLanguage('en', all)).toBe('parakeet');
    expect(familyForLanguage('ja', all)).toBe('sense-voice');
    expect(familyForLanguage('yue', all)).toBe('sense-voice');
    expect(familyForLanguage('vi', all)).toBe('whisper');
    // A family turned off: Whisper does its languages.
    expect(familyForLanguage('de', ['whisper', 'sense-voice'])).toBe('whisper');
  });

  it('refuses a family that cannot do the run', () => {
    expect(engineChoiceProblem({ engine: 'parakeet', language: 'ja', translate: false })).toBe(
      'validation.engineLanguage',
    );
    expect(engineChoiceProblem({ engine: 'sense-voice', language: 'en', translate: false })).toBeNull();
    expect(engineChoiceProblem({ engine: 'parakeet', language: 'auto', translate: false })).toBeNull();
    expect(engineChoiceProblem({ engine: 'parakeet', language: 'de', translate: true })).toBe(
      'validation.engineTranslate',
    );
    expect(engineChoiceProblem({ engine: 'whisper', language: 'vi', translate: true })).toBeNull();
  });
});

describe('modelLabel', () => {
  it('names the local models as their makers do, and keeps an unknown id as it is', () => {
    expect(modelLabel('whisper-base')).toBe('Whisper base');
    expect(modelLabel('whisper-large-v3-turbo')).toBe('Whisper large-v3-turbo');
    expect(modelLabel('parakeet-tdt-0.6b-v3-int8')).toBe('Parakeet TDT 0.6B v3');
    expect(modelLabel('sense-voice-small-int8')).toBe('SenseVoice Small');
    expect(modelLabel('gpt-4o-transcribe')).toBe('gpt-4o-transcribe');
  });
});
