import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../common/format';
import type { Segment } from '../../../common/segments';
import type { SegmentBounds } from '../../../common/segment-times';
import { useSegmentBox, type SegmentBoxProps } from '../../lib/use-segment-box';
import { SegmentBox } from './segment-box';
import { SegmentTimes } from './segment-times';
import { Highlighted, TimedWords } from './segment-text';
import { SegmentSpeaker, useHasSpeakers } from '../speakers/speakers';

/**
 * One segment: its time seeks the player; its text is edited in place like a document. A click
 * opens it with the caret where the click landed (on word-timed text a click plays the word, a
 * double click edits). Enter, Tab and leaving the box save; Shift+Enter is a line break; Escape
 * cancels; Tab / Shift+Tab (or Alt+↓ / Alt+↑) go on to the next / previous segment. Typing also
 * saves after a pause. Split cuts at the caret; merge joins the next segment.
 */
export const SegmentRow = memo(function SegmentRow({
  segment,
  current,
  linked = false,
  time,
  term,
  onSeek,
  onTime,
  timeBounds,
  rowRef,
  ...edit
}: Omit<SegmentBoxProps, 'text'> & {
  segment: Segment;
  current: boolean;
  /** The segment a link opened the page at (a search result): outlined until another is played. */
  linked?: boolean;
  /** The player's time, given to the row being played only (the others do not re-render). */
  time?: number;
  term: string;
  onSeek: (seconds: number) => void;
  /** Sets the open segment's start and end (the time fields under its text); true once saved. */
  onTime?: (index: number, start: number, end: number) => unknown;
  /** How far the open segment's edges may be dragged (its timeline); given to that row only. */
  timeBounds?: SegmentBounds;
  rowRef?: React.Ref<HTMLLIElement>;
}) {
  const { t } = useTranslation();
  const { index, editable, editing, isLast } = edit;
  const box = useSegmentBox({ ...edit, text: segment.text });
  const timed = (segment.words?.length ?? 0) > 0;
  // Phones with speakers: time and name on one line, the text under them at full width.
  const stacked = useHasSpeakers();

  return (
    <li
      ref={rowRef}
      data-segment={index}
      data-linked={linked || undefined}
      className={`group scroll-mt-[45vh] rounded-lg lg:scroll-mt-32 ${current ? 'bg-brand-50' : 'hover:bg-slate-50'} ${linked ? 'ring-2 ring-amber-300' : ''}`}
    >
      <div
        className={`flex gap-x-3 px-3 py-2 ${stacked ? 'max-sm:flex-wrap max-sm:gap-y-1 max-sm:*:last:basis-full' : ''}`}
      >
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
            <SegmentBox
              index={index}
              text={segment.text}
              isLast={isLast}
              boxRef={box.box}
              onChange={box.onChange}
              onBlur={box.onBlur}
              onKeyDown={box.onKeyDown}
              onSplit={box.split}
              onMerge={box.merge}
            />
            {onTime ? (
              <SegmentTimes
                index={index}
                start={segment.start}
                end={segment.end}
                bounds={timeBounds}
                onTime={onTime}
                onLeave={() => edit.onClose(index)}
              />
            ) : null}
          </div>
        ) : timed ? (
          // Word-timed text: a click on a word plays from it; a double click (or the button) edits.
          <div className="flex min-w-0 flex-1 items-start gap-2">
            <p
              ref={box.shown}
              className="min-w-0 flex-1 break-words whitespace-pre-wrap text-slate-800"
              title={editable ? t('editor.wordEditHint') : t('editor.wordHint')}
              onDoubleClick={box.openAtDoubleClick}
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
                onClick={() => box.open(null)}
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
            ref={box.shown}
            data-segment-text={index}
            className={`min-w-0 flex-1 break-words whitespace-pre-wrap text-slate-800 ${editable ? 'cursor-text rounded hover:ring-1 hover:ring-slate-200' : ''}`}
            onClick={editable ? box.openAtPoint : undefined}
            onKeyDown={box.onShownKeyDown}
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
