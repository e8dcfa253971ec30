import { useCallback, useEffect, useRef, useState } from 'react';
import type { Segment } from '../../common/segments';
import type { Speaker } from '../../common/speakers';
import type { TranscriptJson } from '../../common/transcript-types';
import { api } from './api';

export type SegmentEdit =
  | { op: 'text'; index: number; text: string }
  | { op: 'split'; index: number; offset: number }
  | { op: 'merge'; index: number }
  | { op: 'replace'; segments: Segment[]; speakers?: Speaker[] }
  | { op: 'assign_speaker'; indices: number[]; speaker: string | null }
  | { op: 'add_speaker'; name?: string; indices?: number[] }
  | { op: 'update_speaker'; speaker: string; name?: string; color?: string }
  | { op: 'merge_speakers'; from: string; into: string };

/** A version of the transcript the undo history can go back to. */
interface Snapshot {
  segments: Segment[];
  speakers: Speaker[];
}

const HISTORY = 50;

/**
 * Sends segment edits one at a time (each carries the version it was based on, so an edit made
 * elsewhere is never overwritten silently) and keeps an undo history of earlier versions.
 */
export function useSegmentEditor(transcript: TranscriptJson, onSaved: (t: TranscriptJson) => void) {
  const [saving, setSaving] = useState(false);
  const [history, setHistory] = useState<Snapshot[]>([]);
  const version = useRef(transcript.updated_at);
  // Undo restores the speakers too (a rename, a merge), as they were when the edit was made.
  const speakers = useRef(transcript.speakers ?? []);
  useEffect(() => {
    speakers.current = transcript.speakers ?? [];
  }, [transcript.speakers]);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  useEffect(() => {
    if (version.current < transcript.updated_at) version.current = transcript.updated_at;
  }, [transcript.updated_at]);

  const send = useCallback(
    (edit: SegmentEdit, segments: Segment[], record = true) => {
      const before: Snapshot = { segments, speakers: speakers.current };
      const run = async () => {
        setSaving(true);
        try {
          const saved = await api.patch<TranscriptJson>(
            `/self-api/v1/transcripts/${transcript.id}/segments`,
            {
              ...edit,
              updated_at: version.current,
            },
          );
          version.current = saved.updated_at;
          if (record) setHistory((h) => [...h.slice(-HISTORY + 1), before]);
          onSaved(saved);
          return true;
        } catch {
          // The API client has shown the reason (a conflict asks for a reload).
          return false;
        } finally {
          setSaving(false);
        }
      };
      const next = queue.current.then(run);
      queue.current = next;
      return next;
    },
    [onSaved, transcript.id],
  );

  const undo = useCallback(() => {
    const previous = history.at(-1);
    if (!previous) return;
    setHistory((h) => h.slice(0, -1));
    void send({ op: 'replace', segments: previous.segments, speakers: previous.speakers }, [], false);
  }, [history, send]);

  return { send, undo, canUndo: history.length > 0, saving };
}
