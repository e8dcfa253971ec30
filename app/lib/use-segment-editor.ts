import { useCallback, useEffect, useRef, useState } from 'react';
import { replaceInSegments } from '../../common/find-replace';
import type { SegmentEdit } from '../../common/segment-edits';
import type { Segment } from '../../common/segments';
import type { TranscriptJson } from '../../common/transcript-types';
import { toast } from 'sonner';
import i18next from 'i18next';
import { TranscriptCode } from '../../common/error-codes';
import { api } from './api';
import { ApiClientError } from './api-client';
import {
  loadUndoHistory,
  saveUndoHistory,
  sessionUndoStore,
  UNDO_MAX_STEPS,
  type UndoStep,
} from '../../common/undo-history';

/** A version of the transcript the undo history can go back to. */
type Snapshot = UndoStep;

/**
 * Sends segment edits one at a time (each carries the version it was based on, so an edit made
 * elsewhere is never overwritten silently) and keeps an undo history of earlier versions, which
 * survives a reload of the tab while the transcript is still at the version it leads back from.
 */
export function useSegmentEditor(transcript: TranscriptJson, onSaved: (t: TranscriptJson) => void) {
  const [saving, setSaving] = useState(false);
  // The history lives in a ref so an Undo offered earlier (a toast's button) undoes the newest edit.
  const history = useRef<Snapshot[]>([]);
  const [canUndo, setCanUndo] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
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
  // After a reload: the history this tab kept, if nobody has saved the transcript since.
  const restoredFor = useRef<string | null>(null);
  useEffect(() => {
    if (restoredFor.current === transcript.id) return;
    restoredFor.current = transcript.id;
    const kept = loadUndoHistory(sessionUndoStore(), transcript.id, version.current);
    if (kept.length === 0) return;
    history.current = kept;
    setCanUndo(true);
  }, [transcript.id]);
  const keep = useCallback(
    () => saveUndoHistory(sessionUndoStore(), transcript.id, version.current, history.current),
    [transcript.id],
  );

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
            // Someone else saved in between: say who, and offer their version.
            { handleErrors: (code) => code === TranscriptCode.NOT_EDITABLE },
          );
          version.current = saved.updated_at;
          if (record) {
            history.current = [...history.current.slice(-UNDO_MAX_STEPS + 1), before];
            setCanUndo(true);
          }
          keep();
          onSaved(saved);
          return true;
        } catch (err) {
          // The API client has shown other reasons; a conflict offers the version now stored.
          if (err instanceof ApiClientError && err.code === TranscriptCode.NOT_EDITABLE) {
            toast.error(err.message, {
              duration: 20_000,
              action: { label: i18next.t('editor.reloadTheirs'), onClick: () => void reload() },
            });
          }
          return false;
        } finally {
          setSaving(false);
        }
      };
      const reload = async () => {
        const fresh = await api.get<TranscriptJson>(`/self-api/v1/transcripts/${transcript.id}`);
        version.current = fresh.updated_at;
        history.current = [];
        keep();
        setCanUndo(false);
        setEditing(null);
        onSaved(fresh);
      };
      const next = queue.current.then(run);
      queue.current = next;
      return next;
    },
    [keep, onSaved, transcript.id],
  );

  const undo = useCallback(() => {
    const previous = history.current.at(-1);
    if (!previous) return;
    history.current = history.current.slice(0, -1);
    setCanUndo(history.current.length > 0);
    setEditing(null);
    void send({ op: 'replace', segments: previous.segments, speakers: previous.speakers }, [], false);
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
