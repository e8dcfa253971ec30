import type { transcripts } from '../../db/schema';

/**
 * What a transcript starts a new run with: no progress, text, speech map or error of an earlier
 * run. Both the retry (queued again) and the worker (processing starts) reset these.
 */
export const FRESH_RUN = {
  progress: 0,
  remainingSec: null,
  segments: [],
  speakers: [],
  plainText: '',
  speechRegions: null,
  errorCode: null,
  errorDetail: null,
  speakerNote: null,
} satisfies Partial<typeof transcripts.$inferInsert>;
