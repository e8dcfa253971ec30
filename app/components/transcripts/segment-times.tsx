import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatClock, NUDGE_SEC, parseClock, type SegmentBounds } from '../../../common/segment-times';
import { SegmentTimeline } from './segment-timeline';

/**
 * The open segment's start and end: −/+ nudge by a tenth of a second, the field takes m:ss.s
 * (Enter or leaving it applies; ↑/↓ nudge), and the timeline under them has a handle at each edge
 * to drag (given `bounds`, how far they may go). The rules (order, neighbours, the recording's
 * end) are checked again by whoever receives `onTime`.
 */
export function SegmentTimes({
  index,
  start,
  end,
  bounds,
  onTime,
  onLeave,
}: {
  index: number;
  start: number;
  end: number;
  bounds?: SegmentBounds;
  /** Resolves to true once saved. */
  onTime: (index: number, start: number, end: number) => unknown;
  /** The focus left the segment altogether. */
  onLeave: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div
      data-segment-times={index}
      role="group"
      aria-label={t('editor.segmentTime.time')}
      title={t('editor.segmentTime.timeHint')}
      // Brought into view (and focused) below the player that stays at the top of a phone.
      className="mt-1 flex scroll-mt-[55vh] flex-wrap items-center gap-x-3 gap-y-1 text-xs lg:scroll-mt-32"
      onBlur={(e) => {
        const row = e.currentTarget.closest('li');
        if (!(e.relatedTarget instanceof Node && row?.contains(e.relatedTarget))) onLeave();
      }}
    >
      <TimeField which="start" value={start} apply={(v) => onTime(index, v, end)} />
      <TimeField which="end" value={end} apply={(v) => onTime(index, start, v)} />
      {bounds ? (
        <SegmentTimeline index={index} start={start} end={end} bounds={bounds} onTime={onTime} />
      ) : null}
    </div>
  );
}

function TimeField({
  which,
  value,
  apply: send,
}: {
  which: 'start' | 'end';
  value: number;
  apply: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  const keepFocus = (e: React.MouseEvent) => e.preventDefault();
  const button =
    'min-h-8 min-w-8 rounded px-1.5 text-slate-600 hover:bg-slate-100 focus:ring-2 focus:ring-brand-200 focus:outline-none';
  // What is typed, while it belongs to the current value (a saved change shows the new one).
  const [draft, setDraft] = useState<{ value: number; text: string } | null>(null);
  const text = draft && draft.value === value ? draft.text : formatClock(value);
  const setText = (next: string | null) => setDraft(next === null ? null : { value, text: next });
  const label = t(`editor.segmentTime.${which}`);
  const apply = (seconds: number) => {
    const next = Math.max(0, Math.round(seconds * 1000) / 1000);
    if (next === value) return setText(null);
    send(next);
  };
  const commit = () => {
    const parsed = parseClock(text);
    if (parsed === null) return setText(null);
    apply(parsed);
    setText(null);
  };
  return (
    <span className="inline-flex items-center gap-0.5">
      <span className="text-slate-500">{label}</span>
      <button
        type="button"
        onMouseDown={keepFocus}
        className={button}
        aria-label={t('editor.segmentTime.earlier', { what: label })}
        onClick={() => apply(value - NUDGE_SEC)}
        data-testid={`time-${which}-earlier`}
      >
        −
      </button>
      <input
        value={text}
        inputMode="decimal"
        aria-label={label}
        data-testid={`time-${which}`}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            commit();
          } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
            e.preventDefault();
            apply(value + (e.key === 'ArrowUp' ? NUDGE_SEC : -NUDGE_SEC));
          }
        }}
        className="min-h-8 w-[4.75rem] rounded border border-slate-300 px-1 py-0.5 text-center font-mono tabular-nums focus:ring-2 focus:ring-brand-200 focus:outline-none"
      />
      <button
        type="button"
        onMouseDown={keepFocus}
        className={button}
        aria-label={t('editor.segmentTime.later', { what: label })}
        onClick={() => apply(value + NUDGE_SEC)}
        data-testid={`time-${which}-later`}
      >
        +
      </button>
    </span>
  );
}
