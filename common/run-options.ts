import { z } from 'zod';
import { ENGINE_CHOICES, engineChoiceProblem } from './engines';
import { textField } from './text';
import { UUID_RE, validUrl } from './validators';
import { isTranscriptionLanguage } from './whisper-languages';

// How a transcript is made, in one schema: the dashboard's form and API clients send it, the API
// validates it, the modules take its output as their input and store it in the transcript's
// columns (server/modules/transcription/run-columns.ts). Upload, link import, caption import
// and "Try again" all use it.

/** Most speakers a user can say to expect. */
export const MAX_EXPECTED_SPEAKERS = 20;

const uuid = z.string().regex(UUID_RE, 'validation.uuid');

/** The fields, without the check across them (for schemas built from some of them). */
export const runOptionsFields = z.object({
  name: textField({ min: 1, max: 200, maxMessage: 'validation.nameMax' }).optional(),
  language: z.string().refine(isTranscriptionLanguage, 'validation.language').default('auto'),
  /** Translate the speech to English. */
  translate: z.boolean().default(false),
  folder_id: uuid.nullable().optional(),
  /** Off: transcribe the whole audio, silence included (speech is detected first by default). */
  detect_speech: z.boolean().default(true),
  /** Identify speakers (local diarization); speaker_count: how many are expected, if known. */
  detect_speakers: z.boolean().default(false),
  speaker_count: z.number().int().min(1).max(MAX_EXPECTED_SPEAKERS).nullable().optional(),
  /** The model family: 'auto' picks the best for the language (common/engines.ts). */
  engine: z.enum(ENGINE_CHOICES).default('auto'),
});

/** A family asked for must speak the language and cannot translate (only Whisper does). */
function checkEngine(
  o: { engine: (typeof ENGINE_CHOICES)[number]; language: string; translate: boolean },
  ctx: z.RefinementCtx,
) {
  const problem = engineChoiceProblem(o);
  if (problem) ctx.addIssue({ code: 'custom', path: ['engine'], message: problem });
}

export const runOptionsSchema = runOptionsFields.superRefine(checkEngine);
/** The options as the server holds them (defaults applied). */
export type RunOptions = z.output<typeof runOptionsSchema>;
/** The options as a client sends them (every field may be left out). */
export type RunOptionsInput = z.input<typeof runOptionsSchema>;

/** POST /transcripts: an upload (tus) becomes a transcript. */
export const uploadRunSchema = runOptionsFields
  .extend({ upload_id: z.string().min(1).max(64) })
  .strict()
  .superRefine(checkEngine);
export type UploadRun = z.output<typeof uploadRunSchema>;
export type UploadRunInput = z.input<typeof uploadRunSchema>;

/** POST /transcripts/from-link: a media file's address, or a web page's when the server has yt-dlp. */
export const linkRunSchema = runOptionsFields
  .extend({
    url: z
      .string()
      .trim()
      .min(1, 'validation.required')
      .max(2048, 'validation.tooLong')
      .refine(validUrl, 'validation.url'),
  })
  .strict()
  .superRefine(checkEngine);
export type LinkRun = z.output<typeof linkRunSchema>;
export type LinkRunInput = z.input<typeof linkRunSchema>;

/**
 * POST /transcripts/:id/retry: what may change when a transcript runs again; a field left out
 * keeps the transcript's own setting. {detect_speech: false} transcribes everything again;
 * {detect_speakers: false} runs again without identifying speakers.
 */
export const retrySchema = z
  .object({
    detect_speech: runOptionsFields.shape.detect_speech.unwrap().optional(),
    detect_speakers: runOptionsFields.shape.detect_speakers.unwrap().optional(),
    speaker_count: runOptionsFields.shape.speaker_count,
  })
  .strict();
export type RetryOptions = z.output<typeof retrySchema>;

/** POST /transcripts/:id/speakers/identify: how many speakers to expect (left out or null: find out). */
export const identifySpeakersSchema = z
  .object({ speaker_count: runOptionsSchema.shape.speaker_count })
  .strict();
export type IdentifySpeakersInput = z.input<typeof identifySpeakersSchema>;
export type RetryOptionsInput = z.input<typeof retrySchema>;
