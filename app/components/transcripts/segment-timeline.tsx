import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  dragEdge,
  FINE_STEP_SEC,
  formatClock,
  NUDGE_SEC,
  timelineWindow,
  type SegmentBounds,
} from '../../../common/segment-times';

type Edge = 'start' | 'end';

/** After this pause, arrow-key moves of a handle are saved (a run of presses is one edit). */
const KEYS_SAVE_MS = 700;

/**
 * After a save the row is drawn anew (its key holds the times), and its text box takes the focus;
 * the handle that was being moved by keys takes it back.
 */
let refocus: { index: number; which: Edge } | null = null;
const setRefocus = (to: typeof refocus) => {
  refocus = to;
};
/** The handle of segment `index` asked to take the focus back, once. */
const takeRefocus = (index: number): Edge | null => {
  const which = refocus?.index === index ? refocus.which : null;
  if (which) refocus = null;
  return which;
};

/**
 * The open segment on a strip of time: its span between the neighbours (shaded: where it cannot
 * go), with a handle at each edge. Drag a handle (mouse, pen or touch; a press on the strip takes
 * the nearer one) to move the start or end — snapped to a tenth, a hundredth with Shift — or focus
 * it and use the arrow keys (Shift: hundredths; Page Up/Down: a second; Home/End: as far as it
 * goes). The time shows beside the handle while it moves; the change is saved as one edit when
 * the handle is let go (or the keys pause), through `onTime` like the fields above.
 */
export function SegmentTimeline({
  index,
  start,
  end,
  bounds,
  onTime,
}: {
  index: number;
  start: number;
  end: number;
  bounds: SegmentBounds;
  onTime: (index: number, start: number, end: number) => unknown;
}) {
  const { t } = useTranslation();
  const track = useRef<HTMLDivElement>(null);
  const handles = useRef<Record<Edge, HTMLDivElement | null>>({ start: null, end: null });
  // The edge being moved and where it is; shown until the save is answered.
  const [draft, setDraft] = useState<{ which: Edge; value: number; dragging: boolean } | null>(null);
  const keysTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const sent = useRef<Record<Edge, number> | null>(null);
  // Fixed while a handle moves (the times it is drawn from change only once saved).
  const view = useMemo(() => timelineWindow({ start, end }, bounds), [start, end, bounds]);

  useEffect(() => {
    const which = takeRefocus(index);
    if (!which) return;
    // After the text box's own focus on opening.
    const frame = requestAnimationFrame(() => handles.current[which]?.focus());
    return () => cancelAnimationFrame(frame);
  }, [index]);
  useEffect(
    () => () => {
      if (keysTimer.current) clearTimeout(keysTimer.current);
    },
    [],
  );

  const span = view.to - view.from;
  /** Where on the strip a time is, 0–1. */
  const place = (seconds: number) => (Math.min(Math.max(seconds, view.from), view.to) - view.from) / span;
  const at = (seconds: number) => `${place(seconds) * 100}%`;
  const shown: Record<Edge, number> = {
    start: draft?.which === 'start' ? draft.value : start,
    end: draft?.which === 'end' ? draft.value : end,
  };
  const seg = { start, end };

  const save = async (which: Edge, value: number, byKeys = false) => {
    if (keysTimer.current) clearTimeout(keysTimer.current);
    keysTimer.current = null;
    // The times a save still under way sent: the other edge saved meanwhile (before this strip is
    // drawn anew) must not send the first edge's old time back.
    const base = sent.current ?? { start, end };
    if (value === base[which]) return setDraft(null);
    const next = { ...base, [which]: value };
    sent.current = next;
    setDraft({ which, value, dragging: false });
    if (byKeys) setRefocus({ index, which });
    const saved = await onTime(index, next.start, next.end);
    if (saved === true) return;
    // Refused or failed: back to the saved time (once saved, this strip is drawn anew).
    sent.current = null;
    setRefocus(null);
    setDraft(null);
  };

  /** The time under the pointer, kept on the strip. */
  const timeAt = (clientX: number) => {
    const box = track.current!.getBoundingClientRect();
    const x = Math.min(Math.max(clientX - box.left, 0), box.width);
    return view.from + (x / box.width) * span;
  };
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || draft?.dragging) return;
    const pointed = (e.target as HTMLElement).closest<HTMLElement>('[data-edge]')?.dataset.edge as
      Edge | undefined;
    const time = timeAt(e.clientX);
    const which = pointed ?? (Math.abs(time - start) <= Math.abs(time - end) ? 'start' : 'end');
    e.preventDefault();
    handles.current[which]?.focus();
    e.currentTarget.setPointerCapture(e.pointerId);
    // A press on a handle does not move it; a press on the strip brings the nearer one there.
    const value = pointed ? shown[which] : dragEdge(which, time, seg, bounds, step(e));
    setDraft({ which, value, dragging: true });
  };
  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>) => {
    if (!draft?.dragging) return;
    setDraft({ ...draft, value: dragEdge(draft.which, timeAt(e.clientX), seg, bounds, step(e)) });
  };
  const onPointerUp = (e: React.PointerEvent<HTMLDivElement>) => {
    if (!draft?.dragging) return;
    e.currentTarget.releasePointerCapture(e.pointerId);
    void save(draft.which, draft.value);
  };

  const onKeyDown = (which: Edge) => (e: React.KeyboardEvent<HTMLDivElement>) => {
    const now = draft?.which === which ? draft.value : which === 'start' ? start : end;
    const fine = e.shiftKey ? FINE_STEP_SEC : NUDGE_SEC;
    const target: Record<string, number> = {
      ArrowLeft: now - fine,
      ArrowDown: now - fine,
      ArrowRight: now + fine,
      ArrowUp: now + fine,
      PageDown: now - 1,
      PageUp: now + 1,
      Home: -Infinity,
      End: Infinity,
    };
    if (e.key === 'Escape' && draft) {
      e.preventDefault();
      e.stopPropagation();
      if (keysTimer.current) clearTimeout(keysTimer.current);
      return setDraft(null);
    }
    if (e.key === 'Enter' && draft) {
      e.preventDefault();
      return void save(which, draft.value, true);
    }
    if (!(e.key in target)) return;
    e.preventDefault();
    const value = dragEdge(
      which,
      target[e.key]!,
      seg,
      bounds,
      e.key.startsWith('Arrow') ? fine : FINE_STEP_SEC,
    );
    // End with no known end of the recording: nowhere to go.
    if (!Number.isFinite(value)) return;
    setDraft({ which, value, dragging: false });
    if (keysTimer.current) clearTimeout(keysTimer.current);
    keysTimer.current = setTimeout(() => void save(which, value, true), KEYS_SAVE_MS);
  };

  const label = (which: Edge) => t(`editor.segmentTime.${which}`);
  return (
    <div
      ref={track}
      data-testid="segment-timeline"
      title={t('editor.segmentTime.dragHint')}
      className="relative mt-1.5 h-10 w-full touch-none rounded-md bg-slate-100 select-none"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => setDraft(null)}
    >
      {/* Where the segment cannot go: the neighbours, before 0, past the recording. */}
      <Shade left="0%" right={`calc(100% - ${at(bounds.min)})`} />
      <Shade left={at(bounds.max)} right="0%" />
      <div
        className="absolute inset-y-1.5 rounded bg-brand-200/80 ring-1 ring-brand-400"
        style={{ left: at(shown.start), right: `calc(100% - ${at(shown.end)})` }}
      />
      {(['start', 'end'] as const).map((which) => {
        const value = shown[which];
        const [min, max] =
          which === 'start'
            ? [bounds.min, dragEdge('start', Infinity, seg, bounds)]
            : [dragEdge('end', 0, seg, bounds), bounds.max];
        const active = draft?.which === which;
        return (
          <div
            key={which}
            ref={(el) => {
              handles.current[which] = el;
            }}
            data-edge={which}
            data-testid={`drag-${which}`}
            role="slider"
            tabIndex={0}
            aria-label={label(which)}
            aria-valuemin={min}
            aria-valuemax={Number.isFinite(max) ? max : undefined}
            aria-valuenow={value}
            aria-valuetext={formatClock(value)}
            aria-describedby={`segment-drag-hint-${index}`}
            onKeyDown={onKeyDown(which)}
            onBlur={() => {
              // Keys pressed, then the focus moved on: saved at once.
              if (keysTimer.current && draft?.which === which) void save(which, draft.value, true);
            }}
            className="group/handle absolute inset-y-0 z-10 flex w-6 -translate-x-1/2 cursor-ew-resize items-center justify-center rounded focus:outline-none"
            style={{ left: at(value) }}
          >
            <span
              className={`h-7 w-1.5 rounded-full ${active ? 'bg-brand-700' : 'bg-brand-600'} shadow ring-2 ring-white group-hover/handle:bg-brand-700 group-focus-visible/handle:ring-brand-300`}
            />
            {active ? (
              <span
                data-testid="drag-time"
                // Beside the handle, away from the other one, unless that would leave the strip.
                className={`pointer-events-none absolute bottom-full mb-1 rounded bg-slate-900 px-1.5 py-0.5 font-mono text-xs whitespace-nowrap text-white tabular-nums shadow ${(which === 'start' ? place(value) > 0.3 : place(value) > 0.7) ? 'right-1/2 translate-x-3' : 'left-1/2 -translate-x-3'}`}
              >
                {formatClock(value)}
              </span>
            ) : null}
          </div>
        );
      })}
      <span id={`segment-drag-hint-${index}`} className="sr-only">
        {t('editor.segmentTime.dragHint')}
      </span>
    </div>
  );
}

const step = (e: { shiftKey: boolean }) => (e.shiftKey ? FINE_STEP_SEC : NUDGE_SEC);

function Shade({ left, right }: { left: string; right: string }) {
  return (
    <div
      aria-hidden
      className="absolute inset-y-0 rounded-md bg-[repeating-linear-gradient(135deg,var(--color-slate-300)_0_4px,transparent_4px_8px)] opacity-70"
      style={{ left, right }}
    />
  );
}
