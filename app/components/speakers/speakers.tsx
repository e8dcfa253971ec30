// Speakers on the transcript page: the chip beside each segment (pick who says it), the panel
// that lists them (rename, recolour, merge, filter the view, add one) and the selection of
// several segments to give them a speaker at once. Edits go through the segment editor, so they
// are versioned like text edits and undo covers them.

import { createContext, memo, useContext, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../common/format';
import { MAX_SPEAKER_NAME, MAX_SPEAKERS, type Speaker } from '../../../common/speakers';

/** What the chips and the panel do; built once per transcript version by useSpeakerTools. */
export interface SpeakerTools {
  speakers: Speaker[];
  byId: Map<string, Speaker>;
  editable: boolean;
  /** Segments picked for a speaker change (selection mode on), by index. */
  selected: ReadonlySet<number> | null;
  toggle: (index: number) => void;
  /** Give segments to a speaker (null: nobody), or to a new one ('new'). */
  assign: (indices: number[], speaker: string | null | 'new') => void;
}

const SpeakerContext = createContext<SpeakerTools | null>(null);
export const SpeakerProvider = SpeakerContext.Provider;

/** Whether segment rows show a speaker (phones then put the text under the time and name). */
export function useHasSpeakers(): boolean {
  return (useContext(SpeakerContext)?.speakers.length ?? 0) > 0;
}

const NEW = '__new__';
const NONE = '';

/** A speaker's name in their colour (the share page, read-only rows). */
export function SpeakerName({ speaker }: { speaker: Speaker | undefined }) {
  if (!speaker) return null;
  return (
    <span
      className="mr-2 inline-flex items-center gap-1 text-sm font-semibold"
      style={{ color: speaker.color }}
      data-testid="speaker-name"
    >
      <span aria-hidden className="inline-block h-2 w-2 rounded-full" style={{ background: speaker.color }} />
      {speaker.name}
    </span>
  );
}

/**
 * The speaker of segment `index`: a picker when the transcript can be edited, the name otherwise.
 * Nothing at all while the transcript has no speakers (the page looks as it always did).
 */
export const SegmentSpeaker = memo(function SegmentSpeaker({
  index,
  speakerId,
  time,
}: {
  index: number;
  speakerId: string | undefined;
  time: number;
}) {
  const { t } = useTranslation();
  const tools = useContext(SpeakerContext);
  if (!tools || tools.speakers.length === 0) return null;
  const speaker = speakerId ? tools.byId.get(speakerId) : undefined;
  const selecting = tools.selected !== null;
  return (
    <div className="flex shrink-0 items-start gap-1" data-testid="segment-speaker">
      {selecting ? (
        <input
          type="checkbox"
          className="mt-1"
          checked={tools.selected!.has(index)}
          onChange={() => tools.toggle(index)}
          aria-label={t('speakers.selectSegment', { time: formatTime(time) })}
        />
      ) : null}
      {tools.editable ? (
        <select
          value={speaker?.id ?? NONE}
          onChange={(e) => {
            const value = e.target.value;
            tools.assign([index], value === NEW ? 'new' : value === NONE ? null : value);
          }}
          aria-label={t('speakers.speakerOf', { time: formatTime(time) })}
          // As wide as its longest choice (a name, "No speaker"), never cut to a letter.
          className="max-w-[14rem] rounded-md border border-l-4 border-slate-200 bg-white py-0.5 pr-6 pl-1.5 text-xs font-semibold text-slate-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
          style={speaker ? { color: speaker.color, borderLeftColor: speaker.color } : undefined}
        >
          <option value={NONE}>{t('speakers.none')}</option>
          {tools.speakers.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
          {tools.speakers.length < MAX_SPEAKERS ? (
            <option value={NEW}>{t('speakers.newSpeaker')}</option>
          ) : null}
        </select>
      ) : (
        <SpeakerName speaker={speaker} />
      )}
    </div>
  );
});

const small =
  'rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

/** One speaker in the panel: filter by it, rename it, recolour it, merge it into another. */
function SpeakerRow({
  speaker,
  count,
  others,
  filtered,
  editable,
  onFilter,
  onRename,
  onColor,
  onMerge,
}: {
  speaker: Speaker;
  count: number;
  others: Speaker[];
  filtered: boolean;
  editable: boolean;
  onFilter: () => void;
  onRename: (name: string) => void;
  onColor: (color: string) => void;
  onMerge: (into: string) => void;
}) {
  const { t } = useTranslation();
  const [renaming, setRenaming] = useState(false);
  const [draft, setDraft] = useState(speaker.name);
  const save = () => {
    const name = draft.replace(/\s+/g, ' ').trim();
    setRenaming(false);
    if (name && name !== speaker.name) onRename(name);
  };
  return (
    <li className="flex flex-wrap items-center gap-2 py-1" data-testid="speaker" data-speaker={speaker.id}>
      {renaming ? (
        <form
          method="post"
          className="flex items-center gap-1"
          onSubmit={(e) => {
            e.preventDefault();
            save();
          }}
        >
          <input
            autoFocus
            value={draft}
            maxLength={MAX_SPEAKER_NAME}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') {
                setDraft(speaker.name);
                setRenaming(false);
              }
            }}
            aria-label={t('speakers.nameOf', { name: speaker.name })}
            className="w-40 rounded-md border border-brand-300 px-2 py-1 text-sm focus:ring-2 focus:ring-brand-200 focus:outline-none"
          />
          <button type="submit" className={small}>
            {t('speakers.save')}
          </button>
        </form>
      ) : (
        <button
          type="button"
          onClick={onFilter}
          aria-pressed={filtered}
          title={t('speakers.filter', { name: speaker.name })}
          className={`inline-flex max-w-full items-center gap-1.5 rounded-full px-2.5 py-1 text-sm font-semibold ring-1 ${filtered ? 'bg-slate-900 text-white ring-slate-900' : 'bg-white ring-slate-200 hover:bg-slate-50'}`}
          style={filtered ? undefined : { color: speaker.color }}
        >
          <span
            aria-hidden
            className="h-2.5 w-2.5 shrink-0 rounded-full"
            style={{ background: speaker.color }}
          />
          <span className="truncate">{speaker.name}</span>
          <span className={`text-xs font-normal ${filtered ? 'text-slate-300' : 'text-slate-500'}`}>
            {count}
          </span>
        </button>
      )}
      {editable && !renaming ? (
        <span className="flex items-center gap-1">
          <button
            type="button"
            className={small}
            onClick={() => {
              setDraft(speaker.name);
              setRenaming(true);
            }}
            aria-label={t('speakers.renameOf', { name: speaker.name })}
          >
            {t('speakers.rename')}
          </button>
          <input
            type="color"
            value={speaker.color}
            onChange={(e) => onColor(e.target.value)}
            aria-label={t('speakers.colorOf', { name: speaker.name })}
            className="h-7 w-7 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
          />
          {others.length > 0 ? (
            <select
              value=""
              onChange={(e) => e.target.value && onMerge(e.target.value)}
              aria-label={t('speakers.mergeOf', { name: speaker.name })}
              className="max-w-40 rounded-md border border-slate-300 bg-white px-1 py-1 text-xs text-slate-700"
            >
              <option value="">{t('speakers.mergeInto')}</option>
              {others.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          ) : null}
        </span>
      ) : null}
    </li>
  );
}

/**
 * The transcript's speakers: who speaks how often, a filter per speaker, and (when editable)
 * rename, colour, merge, add, and the selection of segments to give a speaker at once.
 */
export function SpeakerPanel({
  tools,
  counts,
  filter,
  onFilter,
  onRename,
  onColor,
  onMerge,
  onAdd,
  onSelecting,
}: {
  tools: SpeakerTools;
  /** Segments per speaker id. */
  counts: Map<string, number>;
  filter: string | null;
  onFilter: (speaker: string | null) => void;
  onRename: (speaker: string, name: string) => void;
  onColor: (speaker: string, color: string) => void;
  onMerge: (from: string, into: string) => void;
  onAdd: () => void;
  onSelecting: (on: boolean) => void;
}) {
  const { t } = useTranslation();
  const { speakers, editable, selected } = tools;
  if (speakers.length === 0 && !editable) return null;
  return (
    <section
      className="mb-3 rounded-xl border border-slate-200 bg-white p-3"
      aria-label={t('speakers.title')}
      data-testid="speaker-panel"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{t('speakers.title')}</h2>
        <div className="flex flex-wrap items-center gap-2">
          {filter !== null ? (
            <button type="button" className={small} onClick={() => onFilter(null)}>
              {t('speakers.showAll')}
            </button>
          ) : null}
          {editable && speakers.length > 0 ? (
            <button
              type="button"
              className={small}
              aria-pressed={selected !== null}
              onClick={() => onSelecting(selected === null)}
            >
              {selected === null ? t('speakers.select') : t('speakers.selectDone')}
            </button>
          ) : null}
          {editable && speakers.length < MAX_SPEAKERS ? (
            <button type="button" className={small} onClick={onAdd}>
              {t('speakers.add')}
            </button>
          ) : null}
        </div>
      </div>
      {speakers.length === 0 ? (
        <p className="mt-1 text-xs text-slate-500">{t('speakers.hint')}</p>
      ) : (
        <ul className="mt-1">
          {speakers.map((s) => (
            <SpeakerRow
              key={`${s.id}-${s.name}`}
              speaker={s}
              count={counts.get(s.id) ?? 0}
              others={speakers.filter((o) => o.id !== s.id)}
              filtered={filter === s.id}
              editable={editable}
              onFilter={() => onFilter(filter === s.id ? null : s.id)}
              onRename={(name) => onRename(s.id, name)}
              onColor={(color) => onColor(s.id, color)}
              onMerge={(into) => onMerge(s.id, into)}
            />
          ))}
        </ul>
      )}
      {selected !== null ? (
        <div className="mt-2 flex flex-wrap items-center gap-2 border-t border-slate-100 pt-2 text-sm">
          <span className="text-slate-600">{t('speakers.selected', { count: selected.size })}</span>
          <select
            value=""
            disabled={selected.size === 0}
            onChange={(e) => {
              const value = e.target.value;
              if (!value) return;
              tools.assign(
                [...selected].sort((a, b) => a - b),
                value === NEW ? 'new' : value === '-' ? null : value,
              );
            }}
            aria-label={t('speakers.assignSelected')}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 text-xs text-slate-700"
          >
            <option value="">{t('speakers.assignSelected')}</option>
            {speakers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
            <option value="-">{t('speakers.none')}</option>
            {speakers.length < MAX_SPEAKERS ? <option value={NEW}>{t('speakers.newSpeaker')}</option> : null}
          </select>
        </div>
      ) : null}
    </section>
  );
}

/** Segments per speaker, for the panel. */
export function useSpeakerCounts(segments: readonly { speaker?: string }[]): Map<string, number> {
  return useMemo(() => {
    const counts = new Map<string, number>();
    for (const s of segments) if (s.speaker) counts.set(s.speaker, (counts.get(s.speaker) ?? 0) + 1);
    return counts;
  }, [segments]);
}
