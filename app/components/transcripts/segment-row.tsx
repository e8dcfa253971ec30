import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../common/format';
import { wordRanges, type Segment } from '../../../common/segments';
import { SegmentSpeaker } from './speakers';

const AUTOSAVE_MS = 1000;

/** Text with the find term marked. */
function Highlighted({ text, term }: { text: string; term: string }) {
  if (!term) return <>{text}</>;
  const lower = text.toLocaleLowerCase();
  const needle = term.toLocaleLowerCase();
  const parts: React.ReactNode[] = [];
  let from = 0;
  for (let i = lower.indexOf(needle); i >= 0; i = lower.indexOf(needle, from)) {
    parts.push(
      text.slice(from, i),
      <mark key={i} className="rounded bg-amber-200 px-0.5">
        {text.slice(i, i + term.length)}
      </mark>,
    );
    from = i + term.length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

/**
 * A segment's text with its words timed: the word being spoken is marked, and clicking a word
 * plays from it. Text the words do not cover (an edit the timings could not follow) stays plain.
 */
function TimedWords({
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

/**
 * One segment: its time seeks the player; its text becomes a text box on click, saved after a
 * pause in typing and when leaving it. Split cuts at the caret; merge joins the next segment.
 */
export const SegmentRow = memo(function SegmentRow({
  index,
  segment,
  current,
  time,
  editable,
  term,
  isLast,
  onSeek,
  onText,
  onSplit,
  onMerge,
  rowRef,
}: {
  index: number;
  segment: Segment;
  current: boolean;
  /** The player's time, given to the row being played only (the others do not re-render). */
  time?: number;
  editable: boolean;
  term: string;
  isLast: boolean;
  onSeek: (seconds: number) => void;
  onText: (index: number, text: string) => void;
  onSplit: (index: number, offset: number) => void;
  onMerge: (index: number) => void;
  rowRef?: React.Ref<HTMLLIElement>;
}) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(segment.text);
  const box = useRef<HTMLTextAreaElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saved = useRef(segment.text);

  const save = (text: string) => {
    if (timer.current) clearTimeout(timer.current);
    const clean = text.trim();
    if (!clean || clean === saved.current) return;
    saved.current = clean;
    onText(index, clean);
  };

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  const startEditing = () => {
    if (!editable) return;
    saved.current = segment.text;
    setDraft(segment.text);
    setEditing(true);
  };

  useEffect(() => {
    if (editing) box.current?.focus();
  }, [editing]);
  const timed = (segment.words?.length ?? 0) > 0;

  return (
    <li
      ref={rowRef}
      data-segment={index}
      className={`group rounded-lg ${current ? 'bg-brand-50' : 'hover:bg-slate-50'}`}
    >
      <div className="flex gap-3 px-3 py-2">
        <button
          type="button"
          onClick={() => onSeek(segment.start)}
          className="w-14 shrink-0 pt-0.5 text-left font-mono text-xs text-slate-500 tabular-nums hover:text-brand-600"
          aria-label={t('editor.seek', { time: formatTime(segment.start) })}
        >
          {formatTime(segment.start)}
        </button>
        <SegmentSpeaker index={index} speakerId={segment.speaker} time={segment.start} />
        {editing ? (
          <div className="min-w-0 flex-1">
            <textarea
              ref={box}
              value={draft}
              rows={Math.max(2, Math.ceil(draft.length / 70))}
              aria-label={t('editor.editSegment')}
              onChange={(e) => {
                const value = e.target.value;
                setDraft(value);
                if (timer.current) clearTimeout(timer.current);
                timer.current = setTimeout(() => save(value), AUTOSAVE_MS);
              }}
              onBlur={(e) => {
                // Leaving for the split/merge buttons of this row keeps the box open.
                if (e.relatedTarget instanceof HTMLElement && e.relatedTarget.dataset.row === String(index))
                  return;
                save(draft);
                setEditing(false);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Escape') {
                  setDraft(saved.current);
                  setEditing(false);
                }
              }}
              className="w-full resize-y rounded-md border border-brand-300 px-2 py-1 text-slate-800 focus:ring-2 focus:ring-brand-200 focus:outline-none"
            />
            <div className="mt-1 flex gap-2 text-xs">
              <button
                type="button"
                data-row={index}
                className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100"
                onClick={() => {
                  const value = box.current?.value ?? draft;
                  // The saved text is trimmed: count the caret from its first character.
                  const offset =
                    (box.current?.selectionStart ?? 0) - (value.length - value.trimStart().length);
                  save(value);
                  setEditing(false);
                  onSplit(index, offset);
                }}
              >
                {t('editor.split')}
              </button>
              {!isLast ? (
                <button
                  type="button"
                  data-row={index}
                  className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100"
                  onClick={() => {
                    save(draft);
                    setEditing(false);
                    onMerge(index);
                  }}
                >
                  {t('editor.merge')}
                </button>
              ) : null}
            </div>
          </div>
        ) : timed ? (
          // Word-timed text: a click on a word plays from it; the edit button opens the text box.
          <div className="flex min-w-0 flex-1 items-start gap-2">
            <p className="min-w-0 flex-1 whitespace-pre-wrap text-slate-800" title={t('editor.wordHint')}>
              {term ? (
                <Highlighted text={segment.text} term={term} />
              ) : (
                <TimedWords segment={segment} time={time} onSeek={onSeek} />
              )}
            </p>
            {editable ? (
              <button
                type="button"
                onClick={startEditing}
                aria-label={t('editor.editSegment')}
                title={t('editor.edit')}
                className="shrink-0 rounded px-1.5 py-0.5 text-xs text-slate-500 opacity-60 group-hover:opacity-100 hover:bg-slate-100 hover:text-slate-800 focus:opacity-100"
              >
                {t('editor.edit')}
              </button>
            ) : null}
          </div>
        ) : (
          <p
            className={`min-w-0 flex-1 whitespace-pre-wrap text-slate-800 ${editable ? 'cursor-text' : ''}`}
            onClick={startEditing}
            onKeyDown={(e) => e.key === 'Enter' && startEditing()}
            tabIndex={editable ? 0 : undefined}
            role={editable ? 'button' : undefined}
            aria-label={editable ? t('editor.editSegment') : undefined}
          >
            <Highlighted text={segment.text} term={term} />
          </p>
        )}
      </div>
    </li>
  );
});
