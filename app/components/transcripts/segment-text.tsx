import { findPattern } from '../../../common/find-replace';
import { wordRanges, type Segment } from '../../../common/segments';

/** Text with the find term marked (the same matching as find and replace). */
export function Highlighted({ text, term }: { text: string; term: string }) {
  const re = findPattern(term);
  if (!re) return <>{text}</>;
  const parts: React.ReactNode[] = [];
  let from = 0;
  for (const m of text.matchAll(re)) {
    parts.push(
      text.slice(from, m.index),
      <mark key={m.index} className="rounded bg-amber-200 px-0.5">
        {m[0]}
      </mark>,
    );
    from = m.index + m[0].length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

/**
 * A segment's text with its words timed: the word being spoken is marked, and clicking a word
 * plays from it. Text the words do not cover (an edit the timings could not follow) stays plain.
 */
export function TimedWords({
  segment,
  time,
  onSeek,
}: {
  segment: Segment;
  time: number | undefined;
  onSeek: (seconds: number) => void;
}) {
  const words = segment.words ?? [];
  const ranges = wordRanges(segment.text, words);
  const parts: React.ReactNode[] = [];
  let cursor = 0;
  words.forEach((w, i) => {
    const r = ranges[i];
    if (!r) return;
    if (r[0] > cursor) parts.push(segment.text.slice(cursor, r[0]));
    // A word stays marked until the next one starts, so the mark does not blink in short pauses.
    const until = words[i + 1]?.start ?? w.end;
    const spoken = time !== undefined && time >= w.start && time < Math.max(until, w.end);
    parts.push(
      <span
        key={i}
        data-word={i}
        data-start={w.start}
        aria-current={spoken ? 'true' : undefined}
        onClick={(e) => {
          e.stopPropagation();
          onSeek(w.start);
        }}
        className={`cursor-pointer rounded-sm ${spoken ? 'bg-amber-200 text-slate-900' : 'hover:bg-brand-50 hover:text-brand-700'}`}
      >
        {segment.text.slice(r[0], r[1])}
      </span>,
    );
    cursor = r[1];
  });
  parts.push(segment.text.slice(cursor));
  return <>{parts}</>;
}
