import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { findPattern } from '../../../common/find-replace';
import { formatTime } from '../../../common/format';
import { wordRanges, type Segment } from '../../../common/segments';
import { SegmentSpeaker } from './speakers';

const AUTOSAVE_MS = 1000;

/** Text with the find term marked (the same matching as find and replace). */
function Highlighted({ text, term }: { text: string; term: string }) {
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

/** Where a click landed in an element's text, as an offset into that text (null: not in it). */
function caretOffset(container: HTMLElement, x: number, y: number): number | null {
  const doc = container.ownerDocument as Document & {
    caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null;
  };
  let node: Node | null = null;
  let offset = 0;
  const pos = doc.caretPositionFromPoint?.(x, y);
  if (pos) {
    node = pos.offsetNode;
    offset = pos.offset;
  } else {
    const range = doc.caretRangeFromPoint?.(x, y);
    if (range) {
      node = range.startContainer;
      offset = range.startOffset;
    }
  }
  if (!node || !container.contains(node)) return null;
  const before = doc.createRange();
  before.setStart(container, 0);
  before.setEnd(node, offset);
  return before.toString().length;
}

/** Keys that would act twice while an input method (Japanese, Chinese …) is composing. */
function composing(e: React.KeyboardEvent) {
  return e.nativeEvent.isComposing || e.keyCode === 229;
}

/**
 * One segment: its time seeks the player; its text is edited in place like a document. A click
 * opens it with the caret where the click landed (on word-timed text a click plays the word, a
 * double click edits). Enter, Tab and leaving the box save; Shift+Enter is a line break; Escape
 * cancels; Tab / Shift+Tab (or Alt+↓ / Alt+↑) go on to the next / previous segment. Typing also
 * saves after a pause. Split cuts at the caret; merge joins the next segment.
 */
export const SegmentRow = memo(function SegmentRow({
  index,
  segment,
  current,
  linked = false,
  time,
  editable,
  editing,
  term,
  isLast,
  onSeek,
  onText,
  onSplit,
  onMerge,
  onEdit,
  onClose,
  rowRef,
}: {
  index: number;
  segment: Segment;
  current: boolean;
  /** The segment a link opened the page at (a search result): outlined until another is played. */
  linked?: boolean;
  /** The player's time, given to the row being played only (the others do not re-render). */
  time?: number;
  editable: boolean;
  /** This segment is the one open for editing. */
  editing: boolean;
  term: string;
  isLast: boolean;
  onSeek: (seconds: number) => void;
  onText: (index: number, text: string) => void;
  onSplit: (index: number, offset: number) => void;
  onMerge: (index: number) => void;
  /** Opens a segment for editing (`from`: the one Tab left, for the direction). */
  onEdit: (index: number, from?: number) => void;
  /** Closes this segment if it is still the open one. */
  onClose: (index: number) => void;
  rowRef?: React.Ref<HTMLLIElement>;
}) {
  const { t } = useTranslation();
  const box = useRef<HTMLTextAreaElement>(null);
  const text = useRef<HTMLElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saved = useRef(segment.text);
  /** The box's latest value: the box is gone by the time a close is noticed. */
  const latest = useRef(segment.text);
  const caret = useRef<number | null>(null);
  const cancelled = useRef(false);
  const refocus = useRef(false);
  const wasEditing = useRef(false);

  const save = (value: string) => {
    if (timer.current) clearTimeout(timer.current);
    const clean = value.trim();
    if (!clean || clean === saved.current) return;
    saved.current = clean;
    onText(index, clean);
  };
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  // Opening: the box takes the focus with the caret where the click was (else at the end).
  // Closing, however it happens (another segment opened, Tab, Enter, a click elsewhere): save,
  // unless Escape cancelled.
  useEffect(() => {
    if (editing) {
      wasEditing.current = true;
      const el = box.current;
      if (!el) return;
      saved.current = segment.text;
      latest.current = segment.text;
      const at = Math.min(caret.current ?? el.value.length, el.value.length);
      caret.current = null;
      el.focus();
      el.setSelectionRange(at, at);
      return;
    }
    if (!wasEditing.current) return;
    wasEditing.current = false;
    if (cancelled.current) cancelled.current = false;
    else saveRef.current(latest.current);
    if (refocus.current) {
      refocus.current = false;
      text.current?.focus();
    }
    // segment.text is read when opening only: a save while open must not move the caret.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editing]);

  const open = (at: number | null) => {
    if (!editable) return;
    caret.current = at;
    onEdit(index);
  };
  const openAtPoint = (e: React.MouseEvent<HTMLElement>) => {
    // A drag that selected text is a selection to copy, not a click to edit.
    const selection = window.getSelection();
    if (selection && !selection.isCollapsed && e.currentTarget.contains(selection.anchorNode)) return;
    open(caretOffset(e.currentTarget, e.clientX, e.clientY));
  };
  const moveTo = (target: number) => {
    save(box.current?.value ?? latest.current);
    onEdit(target, index);
  };
  const onKeyDown = (e: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (composing(e)) return;
    const value = e.currentTarget.value;
    if (e.key === 'Escape') {
      e.preventDefault();
      cancelled.current = true;
      refocus.current = true;
      onClose(index);
    } else if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      save(value);
      refocus.current = true;
      onClose(index);
    } else if ((e.key === 'Tab' && !e.shiftKey) || (e.key === 'ArrowDown' && e.altKey)) {
      // The last segment lets Tab leave the list (saved by the blur).
      if (isLast) return;
      e.preventDefault();
      moveTo(index + 1);
    } else if ((e.key === 'Tab' && e.shiftKey) || (e.key === 'ArrowUp' && e.altKey)) {
      if (index === 0) return;
      e.preventDefault();
      moveTo(index - 1);
    }
  };
  const timed = (segment.words?.length ?? 0) > 0;
  // Buttons of the open box keep the focus in it (no blur, no save-and-close before they act).
  const keepFocus = (e: React.MouseEvent) => e.preventDefault();

  return (
    <li
      ref={rowRef}
      data-segment={index}
      data-linked={linked || undefined}
      className={`group scroll-mt-[45vh] rounded-lg lg:scroll-mt-32 ${current ? 'bg-brand-50' : 'hover:bg-slate-50'} ${linked ? 'ring-2 ring-amber-300' : ''}`}
    >
      <div className="flex gap-3 px-3 py-2">
        <button
          type="button"
          onClick={() => onSeek(segment.start)}
          className="w-14 shrink-0 self-start pt-0.5 text-left font-mono text-xs text-slate-500 tabular-nums hover:text-brand-600"
          aria-label={t('editor.seek', { time: formatTime(segment.start) })}
        >
          {formatTime(segment.start)}
        </button>
        <SegmentSpeaker index={index} speakerId={segment.speaker} time={segment.start} />
        {editing ? (
          <div className="min-w-0 flex-1">
            <textarea
              ref={box}
              defaultValue={segment.text}
              rows={1}
              aria-label={t('editor.editSegment')}
              aria-describedby={`segment-keys-${index}`}
              onChange={(e) => {
                const value = e.target.value;
                latest.current = value;
                if (timer.current) clearTimeout(timer.current);
                timer.current = setTimeout(() => saveRef.current(value), AUTOSAVE_MS);
              }}
              onBlur={(e) => {
                save(latest.current);
                // Pressing on another segment's text: stay open until its click opens it, so this
                // box does not shrink under the pointer and swallow the click.
                const next = e.relatedTarget;
                if (next instanceof HTMLElement && next.dataset.segmentText !== undefined) return;
                onClose(index);
              }}
              onKeyDown={onKeyDown}
              className="block min-h-[2.75rem] w-full resize-none rounded-md border border-brand-300 bg-white px-2 py-1 text-slate-800 [field-sizing:content] focus:ring-2 focus:ring-brand-200 focus:outline-none"
            />
            <div className="mt-1 flex flex-wrap items-center gap-2 text-xs">
              <button
                type="button"
                tabIndex={-1}
                onMouseDown={keepFocus}
                className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100"
                onClick={() => {
                  const el = box.current;
                  const value = el?.value ?? latest.current;
                  // The saved text is trimmed: count the caret from its first character.
                  const offset = (el?.selectionStart ?? 0) - (value.length - value.trimStart().length);
                  save(value);
                  cancelled.current = true; // saved just now
                  onClose(index);
                  onSplit(index, offset);
                }}
              >
                {t('editor.split')}
              </button>
              {!isLast ? (
                <button
                  type="button"
                  tabIndex={-1}
                  onMouseDown={keepFocus}
                  className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100"
                  onClick={() => {
                    save(box.current?.value ?? latest.current);
                    cancelled.current = true;
                    onClose(index);
                    onMerge(index);
                  }}
                >
                  {t('editor.merge')}
                </button>
              ) : null}
              <span id={`segment-keys-${index}`} className="ml-auto hidden text-slate-500 sm:inline">
                {t('editor.editKeys')}
              </span>
            </div>
          </div>
        ) : timed ? (
          // Word-timed text: a click on a word plays from it; a double click (or the button) edits.
          <div className="flex min-w-0 flex-1 items-start gap-2">
            <p
              ref={text as React.RefObject<HTMLParagraphElement>}
              className="min-w-0 flex-1 break-words whitespace-pre-wrap text-slate-800"
              title={editable ? t('editor.wordEditHint') : t('editor.wordHint')}
              onDoubleClick={(e) => {
                window.getSelection()?.removeAllRanges();
                open(caretOffset(e.currentTarget, e.clientX, e.clientY));
              }}
            >
              {term ? (
                <Highlighted text={segment.text} term={term} />
              ) : (
                <TimedWords segment={segment} time={time} onSeek={onSeek} />
              )}
            </p>
            {editable ? (
              <button
                type="button"
                onClick={() => open(null)}
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
            ref={text as React.RefObject<HTMLParagraphElement>}
            data-segment-text={index}
            className={`min-w-0 flex-1 break-words whitespace-pre-wrap text-slate-800 ${editable ? 'cursor-text rounded hover:ring-1 hover:ring-slate-200' : ''}`}
            onClick={editable ? openAtPoint : undefined}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !composing(e)) {
                e.preventDefault();
                open(null);
              }
            }}
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
