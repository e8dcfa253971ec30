// How the whisper child cuts the speech into chunks, as pure functions: where the next chunk ends
// (a seam between speech regions when one is near), how long the following one may be (from the
// measured speed), and which of a cut chunk's words are kept (the rest is decoded again at the
// start of the next chunk, so no word is cut at a seam). Times are speech seconds: the regions
// laid end to end (speech/regions.ts SpeechTimeline).

/** Shortest chunk once the speed is measured, in seconds (a model pass has a fixed cost). */
export const MIN_CHUNK_SEC = 30;
/** Audio in the first chunk by default: the first words arrive within seconds. */
export const DEFAULT_FIRST_CHUNK_SEC = 20;

/** A piece whisper.cpp returned for a chunk (a word in word mode), in centiseconds from its start. */
export interface RawPiece {
  text: string;
  start: number;
  end: number;
}

export interface ChunkPlanInput {
  /** Speech seconds already transcribed. */
  pos: number;
  /** The chunk length wanted. */
  chunkSec: number;
  /** Speech seconds known so far. */
  speechSec: number;
  /** Whether the speech detector has analysed the whole audio (no more speech will be added). */
  allKnown: boolean;
  /** Seams between speech regions (speech seconds), in order. */
  seams: readonly number[];
}

/**
 * Where the next chunk ends, and whether that end is clean (the end of all speech, or a seam between
 * regions: a pause). No short tail chunk: one for a few seconds would cost a whole model pass.
 */
export function planChunk({ pos, chunkSec, speechSec, allKnown, seams }: ChunkPlanInput): {
  end: number;
  clean: boolean;
} {
  let end = Math.min(speechSec, pos + chunkSec);
  if (allKnown && speechSec - end < chunkSec / 4) end = speechSec;
  if (end >= speechSec && allKnown) return { end, clean: true };
  // A seam in the second half of the chunk ends it there.
  const seam = seams.filter((s) => s > pos + (end - pos) / 2 && s <= end).pop();
  return seam === undefined ? { end, clean: false } : { end: seam, clean: true };
}

/** The first chunk's length: short, so the first words come quickly. */
export const firstChunkSec = (wanted: number | undefined, maxChunkSec: number): number =>
  Math.min(wanted ?? DEFAULT_FIRST_CHUNK_SEC, maxChunkSec);

/**
 * The next chunk's length at the measured speed (speech seconds per compute second), so that each
 * chunk reports back in about `targetComputeSec` whatever the model and the machine; at most twice
 * the previous one, so a speed misjudged on a short chunk (a quiet intro decodes fast) never turns
 * the rest of the file into one long chunk with no text and no news until its end.
 */
export function nextChunkSec(
  speed: number,
  targetComputeSec: number,
  maxChunkSec: number,
  previousSec = Infinity,
): number {
  const floor = Math.min(MIN_CHUNK_SEC, maxChunkSec);
  return Math.min(maxChunkSec, Math.max(floor, Math.min(speed * targetComputeSec, 2 * previousSec)));
}

const SENTENCE_END = /[.!?。！？…]["'”’)\]]*$/u;

/**
 * Where to end a chunk whose audio was cut mid-speech: before the last sentence (or, failing
 * that, the last word), in speech seconds from the chunk's start; null when no place in its
 * second half will do.
 */
export function seamCut(words: readonly RawPiece[], chunkSec: number): number | null {
  for (let i = words.length - 1; i > 0; i--) {
    const start = words[i]!.start / 100;
    if (start < chunkSec / 2) break;
    const prev = words[i - 1]!;
    const pause = start - prev.end / 100;
    if (SENTENCE_END.test(prev.text.trim()) || pause >= 0.5) return start;
  }
  const last = words[words.length - 1];
  return last && last.start / 100 >= chunkSec / 2 ? last.start / 100 : null;
}

/**
 * What a decoded chunk keeps: everything when it ended cleanly, else the pieces before the cut
 * (the unfinished tail is decoded again). `advanceSec` is how far the transcription moved on.
 */
export function keepUntilSeam(
  pieces: readonly RawPiece[],
  opts: { clean: boolean; lengthSec: number; wordMode: boolean },
): { pieces: readonly RawPiece[]; advanceSec: number } {
  const { clean, lengthSec, wordMode } = opts;
  if (clean || pieces.length < 2) return { pieces, advanceSec: lengthSec };
  const cut = wordMode ? seamCut(pieces, lengthSec) : pieces[pieces.length - 1]!.start / 100;
  if (cut === null || cut < lengthSec / 2 || cut >= lengthSec) return { pieces, advanceSec: lengthSec };
  return { pieces: pieces.filter((s) => s.start / 100 < cut), advanceSec: cut };
}
