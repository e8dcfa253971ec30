import { z } from 'zod';
import { TRANSCRIPT_STAGES } from '../../common/transcript-types';

// What GET /self-api/v1/transcripts answers (in the envelope's data), for the OpenAPI document.

const match = z.object({
  start: z.number().int().min(0),
  end: z.number().int().min(0),
});

export const snippetSchema = z
  .object({
    segment: z.number().int().min(0).describe("The segment's index: open /transcript/{id}?seg={segment}"),
    start: z.number().min(0).describe("The segment's start in seconds"),
    text: z.string().describe("Part of the segment's text around the first match (plain text, NFC)"),
    matches: z.array(match).describe('The matches in text: [start, end) UTF-16 offsets, in order'),
    truncated_start: z.boolean().describe('Text was cut before the part shown'),
    truncated_end: z.boolean().describe('Text was cut after the part shown'),
  })
  .describe('Where the search matched the text; null when only the name matched');

const summary = z.object({
  id: z.uuid(),
  name: z.string(),
  folder_id: z.uuid().nullable(),
  source: z.enum(['upload', 'import']),
  status: z.enum(['queued', 'processing', 'done', 'failed', 'canceled']),
  progress: z.number().int().min(0).max(100),
  language: z.string(),
  detected_language: z.string().nullable(),
  translate: z.boolean(),
  duration: z.number().nullable(),
  media: z
    .object({
      name: z.string().nullable(),
      type: z.string().nullable(),
      size: z.number().nullable(),
      has_video: z.boolean(),
      url: z.string(),
    })
    .nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  completed_at: z.iso.datetime().nullable(),
  stage: z.enum(TRANSCRIPT_STAGES).nullable(),
  remaining_sec: z.number().nullable(),
  detect_speech: z.boolean(),
  detect_speakers: z.boolean(),
  speaker_count: z.number().int().nullable(),
  snippet: snippetSchema.nullable().optional().describe('Present when the list was searched (q)'),
});

export const listResponseSchema = z.object({
  items: z.array(summary),
  total: z.number().int().min(0),
  page: z.number().int().min(1),
  page_size: z.number().int().min(1),
});
