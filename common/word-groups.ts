// Timed words → sentence-like segments. Whisper (in word mode) and OpenAI's word timestamps give a
// flat list of words; people read, edit and search sentences. A segment closes after a sentence's
// last word, at a pause, or before it grows too long (then at its best inner break: a comma or the
// longest pause in its second half).
import { roundMs, type Segment, type Word } from './segments';
import { isUnspacedText } from './words';

export interface GroupOptions {
  /** Longest segment in characters (default 120; 50 for text in scripts written without spaces). */
  maxChars?: number;
  /** Longest segment in seconds (default 12). */
  maxSec?: number;
  /** A silence at least this long between two words ends the segment (default 1 s). */
  pauseSec?: number;
}

/**
 * A word as engines give it: its text keeps the space before it when there is one (' world,'), so
 * joining texts rebuilds the sentence in every script (Chinese words come without spaces).
 */
export type RawWord = Word;

const SENTENCE_END = /[.!?。！？…؟।]["'”’»)\]）」』]*$/u;
const CLAUSE_END = /[,;:，；：、—–-]["'”’»)\]）」』]*$/u;
const ABBREVIATION = /^(?:mr|mrs|ms|dr|prof|st|vs|etc|e\.g|i\.e|no|jr|sr|inc|ltd|co)\.$/i;

const joinText = (words: readonly RawWord[]) =>
  words
    .map((w) => w.text)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

function toSegment(words: readonly RawWord[]): Segment | null {
  const text = joinText(words);
  if (text === '' || words.length === 0) return null;
  const timed = words
    .map((w) => ({ start: roundMs(w.start), end: roundMs(w.end), text: w.text.trim() }))
    .filter((w) => w.text !== '');
  return {
    start: timed[0]?.start ?? roundMs(words[0]!.start),
    end: Math.max(...timed.map((w) => w.end), roundMs(words[words.length - 1]!.end)),
    text,
    words: timed,
  };
}

export interface WordGrouper {
  /** Adds the next word; returns the segments this closed (usually none or one). */
  push(word: RawWord): Segment[];
  /** Closes the open segment (end of the audio). */
  flush(): Segment[];
  /** Start of the first word not yet in a returned segment, or null when none is held. */
  pendingStart(): number | null;
  /** Drops the words held back (their audio is decoded again). */
  discardPending(): void;
}

export function createWordGrouper(opts: GroupOptions = {}): WordGrouper {
  const pauseSec = opts.pauseSec ?? 1;
  const maxSec = opts.maxSec ?? 12;
  let group: RawWord[] = [];

  const limitChars = (words: readonly RawWord[]) =>
    opts.maxChars ?? (isUnspacedText(joinText(words)) ? 50 : 120);

  /** Index after which to break an over-long group: a clause end or the longest pause in its second half. */
  function bestBreak(words: readonly RawWord[]): number {
    const from = Math.max(0, Math.floor(words.length * 0.4) - 1);
    let best = -1;
    let bestScore = 0;
    for (let i = from; i < words.length - 1; i++) {
      const text = words[i]!.text.trim();
      const pause = Math.max(0, words[i + 1]!.start - words[i]!.end);
      const score = (CLAUSE_END.test(text) ? 2 : 0) + (pause >= 0.3 ? 1 + pause : 0);
      if (score > 0 && score >= bestScore) {
        best = i;
        bestScore = score;
      }
    }
    return best;
  }

  return {
    push(word) {
      const closed: Segment[] = [];
      const emit = (words: readonly RawWord[]) => {
        const seg = toSegment(words);
        if (seg) closed.push(seg);
      };
      const prev = group[group.length - 1];
      if (prev && word.start - prev.end >= pauseSec) {
        emit(group);
        group = [];
      }
      const candidate = [...group, word];
      const tooLong =
        group.length > 0 &&
        (joinText(candidate).length > limitChars(candidate) || word.end - group[0]!.start > maxSec);
      if (tooLong) {
        const cut = bestBreak(group);
        if (cut >= 0) {
          emit(group.slice(0, cut + 1));
          group = group.slice(cut + 1);
        } else {
          emit(group);
          group = [];
        }
      }
      group.push(word);
      const text = word.text.trim();
      if (SENTENCE_END.test(text) && !ABBREVIATION.test(text)) {
        emit(group);
        group = [];
      }
      return closed;
    },
    flush() {
      const seg = toSegment(group);
      group = [];
      return seg ? [seg] : [];
    },
    pendingStart: () => group[0]?.start ?? null,
    discardPending() {
      group = [];
    },
  };
}

/** A whole list of words grouped at once. */
export function groupWords(words: readonly RawWord[], opts: GroupOptions = {}): Segment[] {
  const grouper = createWordGrouper(opts);
  return [...words.flatMap((w) => grouper.push(w)), ...grouper.flush()];
}
