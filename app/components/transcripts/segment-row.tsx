import { memo, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../common/format';
import type { Segment } from '../../../common/segments';

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
 * One segment: its time seeks the player; its text becomes a text box on click, saved after a
 * pause in typing and when leaving it. Split cuts at the caret; merge joins the next segment.
 */
export const SegmentRow = memo(function SegmentRow({
  index,
  segment,
  current,
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
