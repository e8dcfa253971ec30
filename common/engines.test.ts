import { describe, expect, it } from 'vitest';
import { engineChoiceProblem, familyForLanguage, PARAKEET_LANGUAGES, SENSE_VOICE_LANGUAGES } from './engines';
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
