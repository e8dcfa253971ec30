import { z } from 'zod';
import { MAX_FIND_LENGTH } from './find-replace';
import { MAX_SPEAKERS, MAX_SPEAKER_NAME, SPEAKER_COLOR_RE, SPEAKER_ID_RE } from './speakers';
import { textField } from './text';

// The edits a finished transcript takes (PATCH /transcripts/:id/segments), in one schema: the
// editor sends them, the API validates them, server/modules/transcription/edit-segments.ts
// applies them. SegmentEdit is its type everywhere.

const speakerId = z.string().regex(SPEAKER_ID_RE, 'validation.speaker');
const speakerName = textField({ min: 1, max: MAX_SPEAKER_NAME, maxMessage: 'validation.nameMax' });
const speakerColor = z.string().regex(SPEAKER_COLOR_RE, 'validation.color');
const word = z.object({
  start: z.number().finite().min(0),
  end: z.number().finite().min(0),
  text: textField({ max: 200 }),
  speaker: speakerId.optional(),
});
const segment = z.object({
  start: z.number().finite().min(0),
  end: z.number().finite().min(0),
  text: textField({ max: 5000, multiline: true }),
  words: z.array(word).max(2000).optional(),
  speaker: speakerId.optional(),
});
const speaker = z.object({ id: speakerId, name: speakerName, color: speakerColor });
const index = z.number().int().min(0);
const indices = z.array(index).min(1).max(20_000);

export const segmentEditSchema = z.discriminatedUnion('op', [
  /** The whole transcript (undo): the speakers too when given, else they stay. */
  z.object({
    op: z.literal('replace'),
    segments: z.array(segment).max(20_000),
    speakers: z.array(speaker).max(MAX_SPEAKERS).optional(),
  }),
  z.object({ op: z.literal('text'), index, text: textField({ max: 5000, multiline: true }) }),
  z.object({ op: z.literal('split'), index, offset: z.number().int().min(1) }),
  z.object({ op: z.literal('merge'), index }),
  z.object({
    op: z.literal('find_replace'),
    // Not trimmed: spaces are part of what people find and replace.
    find: textField({ min: 1, max: MAX_FIND_LENGTH, multiline: true }),
    replace: textField({ max: MAX_FIND_LENGTH, multiline: true }),
    index: index.optional(),
  }),
  /** Segment `index` runs from `start` to `end` (common/segment-times.ts: no overlap, inside the media). */
  z.object({
    op: z.literal('time'),
    index,
    start: z.number().finite().min(0).max(86_400),
    end: z.number().finite().min(0).max(86_400),
  }),
  /** Every segment from `from` on moves by `delta` seconds. */
  z.object({
    op: z.literal('shift'),
    delta: z.number().finite().min(-86_400).max(86_400),
    from: index.optional(),
  }),
  /** Segments at `indices` said by `speaker` (null: nobody named). */
  z.object({ op: z.literal('assign_speaker'), indices, speaker: speakerId.nullable() }),
  /** A new speaker (default name and colour unless given), optionally given segments at once. */
  z.object({ op: z.literal('add_speaker'), name: speakerName.optional(), indices: indices.optional() }),
  /** Rename or recolour a speaker: every segment follows, as they refer to it by id. */
  z.object({
    op: z.literal('update_speaker'),
    speaker: speakerId,
    name: speakerName.optional(),
    color: speakerColor.optional(),
  }),
  /** Everything `from` said becomes `into`'s; `from` leaves the list. */
  z.object({ op: z.literal('merge_speakers'), from: speakerId, into: speakerId }),
]);
export type SegmentEdit = z.output<typeof segmentEditSchema>;

/** The request: an edit and the version it was made on (`updated_at`, against lost updates). */
export const editRequestSchema = z.intersection(
  segmentEditSchema,
  z.object({ updated_at: z.string().max(40).optional() }),
);
