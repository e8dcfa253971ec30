import { useCallback, useEffect, useRef, useState } from 'react';
import { replaceInSegments } from '../../common/find-replace';
import type { Segment } from '../../common/segments';
import type { TranscriptJson } from '../../common/transcript-types';
import { api } from './api';

export type SegmentEdit =
  | { op: 'text'; index: number; text: string }
  | { op: 'split'; index: number; offset: number }
  | { op: 'merge'; index: number }
  | { op: 'replace'; segments: Segment[] }
  | { op: 'find_replace'; find: string; replace: string; index?: number };

const HISTORY = 50;

/**
 * Sends segment edits one at a time (each carries the version it was based on, so an edit made
 * elsewhere is never overwritten silently), keeps an undo history of earlier versions, and knows
 * which segment is open for editing (one at a time, so moving to another one closes and saves the
 * first).
 */
export function useSegmentEditor(transcript: TranscriptJson, onSaved: (t: TranscriptJson) => void) {
  const [saving, setSaving] = useState(false);
  // The history lives in a ref so an Undo offered earlier (a toast's button) undoes the newest edit.
  const history = useRef<Segment[][]>([]);
  const [canUndo, setCanUndo] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const version = useRef(transcript.updated_at);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  useEffect(() => {
    if (version.current < transcript.updated_at) version.current = transcript.updated_at;
  }, [transcript.updated_at]);

  const send = useCallback(
    (edit: SegmentEdit, before: Segment[], record = true) => {
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
          if (record) {
            history.current = [...history.current.slice(-HISTORY + 1), before];
            setCanUndo(true);
          }
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
    const previous = history.current.at(-1);
    if (!previous) return;
    history.current = history.current.slice(0, -1);
    setCanUndo(history.current.length > 0);
    setEditing(null);
    void send({ op: 'replace', segments: previous }, [], false);
  }, [send]);

  /** Opens segment `index` for editing (null: none). */
  const edit = useCallback((index: number | null) => setEditing(index), []);
  /** Closes segment `index` if it is the one open (a later open of another one stays). */
  const close = useCallback((index: number) => setEditing((cur) => (cur === index ? null : cur)), []);

  /** Replaces `find` everywhere (or in one segment); resolves to how many were replaced. */
  const replace = useCallback(
    async (segments: Segment[], find: string, replacement: string, index?: number) => {
      const { count } = replaceInSegments(segments, find, replacement, index);
      if (count === 0) return 0;
      setEditing(null);
      const done = await send({ op: 'find_replace', find, replace: replacement, index }, segments);
      return done ? count : 0;
    },
    [send],
  );

  return { send, undo, canUndo, saving, editing, edit, close, replace };
}
