import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../common/format';
import type { Segment } from '../../../common/segments';
import { useSegmentBox } from '../../lib/use-segment-box';
import { SegmentSpeaker } from '../speakers/speakers';
import { Highlighted } from '../transcripts/segment-text';

const noop = () => undefined;

/**
 * One segment of a translation: its time seeks the player; the translated text is edited in place
 * like the original's (the same box and keys: Enter, Tab and leaving save, Escape cancels,
 * Tab / Shift+Tab go on); segments are not split or merged here (their timings are the
 * original's). Side by side, the original stands beside it; "Translate again" asks the model for
 * this segment alone.
 */
export const TrackSegmentRow = memo(function TrackSegmentRow({
  index,
  segment,
  text,
  language,
  sideBySide,
  current,
  editable,
  editing,
  isLast,
  term,
  retranslating,
  onSeek,
  onText,
  onEdit,
  onClose,
  onRetranslate,
  rowRef,
}: {
  index: number;
  /** The original segment (times, speaker, text). */
  segment: Segment;
  /** The translated text. */
  text: string;
  language: string;
  sideBySide: boolean;
  current: boolean;
  editable: boolean;
  editing: boolean;
  isLast: boolean;
  term: string;
  retranslating: boolean;
  onSeek: (seconds: number) => void;
  onText: (index: number, text: string) => void;
  onEdit: (index: number, from?: number) => void;
  onClose: (index: number) => void;
  onRetranslate: (index: number) => void;
  rowRef?: React.Ref<HTMLLIElement>;
}) {
  const { t } = useTranslation();
  const box = useSegmentBox({
    index,
    text,
    editable,
    editing,
    isLast,
    onText,
    onSplit: noop,
    onMerge: noop,
    onEdit,
    onClose,
  });
  const keepFocus = (e: React.MouseEvent) => e.preventDefault();
  return (
    <li
      ref={rowRef}
      data-segment={index}
      className={`group scroll-mt-[45vh] rounded-lg lg:scroll-mt-32 ${current ? 'bg-brand-50' : 'hover:bg-slate-50'}`}
    >
      <div className="flex gap-x-3 px-3 py-2 max-sm:flex-wrap max-sm:gap-y-1 max-sm:*:last:basis-full">
        <button
          type="button"
          onClick={() => onSeek(segment.start)}
          className="w-14 shrink-0 self-start pt-0.5 text-left font-mono text-xs text-slate-500 tabular-nums hover:text-brand-600"
          aria-label={t('editor.seek', { time: formatTime(segment.start) })}
        >
          {formatTime(segment.start)}
        </button>
        <SegmentSpeaker index={index} speakerId={segment.speaker} time={segment.start} />
        <div className={`min-w-0 flex-1 ${sideBySide ? 'grid gap-x-4 gap-y-1 sm:grid-cols-2' : ''}`}>
          {sideBySide ? (
            <p
              className="min-w-0 break-words whitespace-pre-wrap text-slate-500"
              data-original={index}
              aria-label={t('translation.original')}
            >
              {segment.text}
            </p>
          ) : null}
          <div className="min-w-0" lang={language}>
            {editing ? (
              <div>
                <textarea
                  ref={box.box}
                  defaultValue={text}
                  rows={1}
                  aria-label={t('translation.editSegment')}
                  onChange={box.onChange}
                  onBlur={box.onBlur}
                  onKeyDown={box.onKeyDown}
                  className="block min-h-[2.75rem] w-full resize-none rounded-md border border-brand-300 bg-white px-2 py-1 text-slate-800 [field-sizing:content] focus:ring-2 focus:ring-brand-200 focus:outline-none"
                  data-testid="track-segment-box"
                />
                <div className="mt-1 flex flex-wrap items-center gap-2 text-xs">
                  <button
                    type="button"
                    tabIndex={-1}
                    onMouseDown={keepFocus}
                    className="rounded px-2 py-1 text-slate-600 hover:bg-slate-100"
                    onClick={() => onRetranslate(index)}
                    data-testid="retranslate"
                  >
                    {t('translation.retranslate')}
                  </button>
                  <span className="ml-auto hidden text-slate-500 sm:inline">{t('translation.editKeys')}</span>
                </div>
              </div>
            ) : (
              <p
                ref={box.shown}
                data-segment-text={index}
                data-track-text={index}
                className={`min-w-0 break-words whitespace-pre-wrap text-slate-800 ${editable ? 'cursor-text rounded hover:ring-1 hover:ring-slate-200' : ''} ${retranslating ? 'animate-pulse text-slate-400' : ''}`}
                onClick={editable ? box.openAtPoint : undefined}
                onKeyDown={box.onShownKeyDown}
                tabIndex={editable ? 0 : undefined}
                role={editable ? 'button' : undefined}
                aria-label={editable ? t('translation.editSegment') : undefined}
                aria-busy={retranslating || undefined}
              >
                {text ? <Highlighted text={text} term={term} /> : <span className="text-slate-400">…</span>}
              </p>
            )}
          </div>
        </div>
      </div>
    </li>
  );
});
