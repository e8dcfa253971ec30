// A comment as the page and the API send it (issue #26 part 4): on a segment or a time range,
// optionally a reply, with the members it mentions by id.
import { z } from 'zod';
import { textField } from './text';
import { UUID_RE } from './validators';

const uuid = z.string().regex(UUID_RE, 'validation.uuid');
const seconds = z
  .number()
  .min(0)
  .max(24 * 3600);

/** The longest comment: a few paragraphs. */
export const COMMENT_MAX = 4000;
export const MENTIONS_MAX = 20;

export const commentBody = textField({ min: 1, max: COMMENT_MAX, multiline: true }).refine(
  (v) => v.trim().length > 0,
  'validation.required',
);

export const commentSchema = z
  .object({
    body: commentBody,
    segment_index: z.number().int().min(0).max(1_000_000).optional(),
    start: seconds.optional(),
    end: seconds.optional(),
    parent_id: uuid.optional(),
    mentions: z.array(uuid).max(MENTIONS_MAX).optional(),
  })
  .strict();
export type CommentInput = z.infer<typeof commentSchema>;

export const commentEditSchema = z.object({ body: commentBody }).strict();
export const commentResolveSchema = z.object({ resolved: z.boolean().default(true) }).strict();

/** A comment as the API answers it (GET /transcripts/:id/comments and the create answer). */
export interface CommentJson {
  id: string;
  transcript_id: string;
  parent_id: string | null;
  segment_index: number | null;
  start: number;
  end: number | null;
  body: string;
  mentions: { id: string; name: string }[];
  /** Null once the author's account is deleted (the comment stays with the team). */
  author: { id: string; name: string } | null;
  resolved: { by: string | null; at: string } | null;
  created_at: string;
  updated_at: string;
}
