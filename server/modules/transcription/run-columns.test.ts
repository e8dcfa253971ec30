import { describe, expect, it } from 'vitest';
import { linkRunSchema, retrySchema, runOptionsSchema, uploadRunSchema } from '../../../common/run-options';
import { retryColumns, runColumns } from './run-columns';

describe('run options: one schema from the form to the columns', () => {
  it('fills the defaults and stores them in the columns', () => {
    const options = uploadRunSchema.parse({ upload_id: 'abc' });
    expect(options).toMatchObject({
      language: 'auto',
      translate: false,
      detect_speech: true,
      detect_speakers: false,
      engine: 'auto',
    });
    expect(runColumns(options)).toEqual({
      language: 'auto',
      translate: false,
      engineChoice: 'auto',
      detectSpeech: true,
      detectSpeakers: false,
      speakerCount: null,
    });
  });

  it('keeps the expected speaker count only when speakers are identified', () => {
    const on = runOptionsSchema.parse({ detect_speakers: true, speaker_count: 3 });
    expect(runColumns(on)).toMatchObject({ detectSpeakers: true, speakerCount: 3 });
    const off = runOptionsSchema.parse({ detect_speakers: false, speaker_count: 3 });
    expect(runColumns(off)).toMatchObject({ detectSpeakers: false, speakerCount: null });
  });

  it('refuses what a run cannot take', () => {
    expect(runOptionsSchema.safeParse({ language: 'xx' }).success).toBe(false);
    expect(runOptionsSchema.safeParse({ speaker_count: 21 }).success).toBe(false);
    expect(uploadRunSchema.safeParse({ upload_id: 'a', url: 'https://x.example' }).success).toBe(false);
    expect(linkRunSchema.safeParse({ url: 'ftp://x.example/a.mp3' }).success).toBe(false);
    // A family that does not speak the language, or any but Whisper asked to translate.
    expect(runOptionsSchema.safeParse({ language: 'ja', engine: 'parakeet' }).success).toBe(false);
    expect(runOptionsSchema.safeParse({ language: 'de', engine: 'parakeet' }).success).toBe(true);
    expect(
      uploadRunSchema.safeParse({ upload_id: 'a', translate: true, engine: 'sense-voice' }).success,
    ).toBe(false);
    expect(linkRunSchema.safeParse({ url: 'https://x.example/a.mp3', engine: 'bogus' }).success).toBe(false);
  });

  it('changes on "Try again" only what it was given', () => {
    expect(retrySchema.parse({})).toEqual({});
    expect(retryColumns(retrySchema.parse({}))).toEqual({});
    expect(retryColumns(retrySchema.parse({ detect_speech: false }))).toEqual({ detectSpeech: false });
    expect(retryColumns(retrySchema.parse({ detect_speakers: false, speaker_count: 2 }))).toEqual({
      detectSpeakers: false,
      speakerCount: null,
    });
    expect(retryColumns(retrySchema.parse({ detect_speakers: true, speaker_count: 2 }))).toEqual({
      detectSpeakers: true,
      speakerCount: 2,
    });
    expect(retrySchema.safeParse({ language: 'en' }).success).toBe(false);
  });
});
