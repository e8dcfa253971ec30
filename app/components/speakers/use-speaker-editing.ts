import { useCallback, useMemo, useState } from 'react';
import type { Segment } from '../../../common/segments';
import type { Speaker } from '../../../common/speakers';
import type { TranscriptJson } from '../../../common/transcript-types';
import type { SpeakerTools } from './speakers';
import type { SegmentEdit } from '../../../common/segment-edits';

const NO_SPEAKERS: Speaker[] = [];

/**
 * The transcript page's speaker state: who is filtered, which segments are selected, and the
 * edits (each one a versioned segment edit, so undo covers it).
 */
export function useSpeakerEditing(
  transcript: TranscriptJson,
  segments: Segment[],
  editor: { send: (edit: SegmentEdit, before: Segment[]) => Promise<unknown> },
  editable: boolean,
) {
  const speakers = transcript.speakers ?? NO_SPEAKERS;
  const [filter, setFilter] = useState<string | null>(null);
  const [selected, setSelected] = useState<Set<number> | null>(null);
  const send = useCallback((edit: SegmentEdit) => void editor.send(edit, segments), [editor, segments]);

  const toggle = useCallback(
    (index: number) =>
      setSelected((current) => {
        const next = new Set(current ?? []);
        if (next.has(index)) next.delete(index);
        else next.add(index);
        return next;
      }),
    [],
  );
  const assign = useCallback(
    (indices: number[], speaker: string | null | 'new') => {
      send(speaker === 'new' ? { op: 'add_speaker', indices } : { op: 'assign_speaker', indices, speaker });
      setSelected((current) => (current ? new Set() : current));
    },
    [send],
  );
  const tools: SpeakerTools = useMemo(
    () => ({
      speakers,
      byId: new Map(speakers.map((s) => [s.id, s])),
      editable,
      selected,
      toggle,
      assign,
    }),
    [speakers, editable, selected, toggle, assign],
  );
  // A filter on a speaker who is gone (merged away, undone) shows everyone again.
  const active = filter !== null && speakers.some((s) => s.id === filter) ? filter : null;
  return {
    tools,
    filter: active,
    /** Whether the filter hides this segment. */
    hidden: (segment: Segment) => active !== null && segment.speaker !== active,
    panel: {
      filter: active,
      onFilter: setFilter,
      onRename: (speaker: string, name: string) => send({ op: 'update_speaker', speaker, name }),
      onColor: (speaker: string, color: string) => send({ op: 'update_speaker', speaker, color }),
      onMerge: (from: string, into: string) => {
        if (filter === from) setFilter(into);
        send({ op: 'merge_speakers', from, into });
      },
      onAdd: () => send({ op: 'add_speaker' }),
      onSelecting: (on: boolean) => setSelected(on ? new Set() : null),
    },
  };
}
