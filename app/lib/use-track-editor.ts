import { useCallback, useEffect, useRef, useState } from 'react';
import i18next from 'i18next';
import { toast } from 'sonner';
import { TranslationCode } from '../../common/error-codes';
import type { TrackJson } from '../../common/translation-types';
import { api } from './api';
import { ApiClientError } from './api-client';

/**
 * Saves a track's segment edits one at a time, each naming the revision it was made on, so an
 * edit saved elsewhere in between is never overwritten: the conflict says so and offers the
 * version now stored. "Translate again" for one segment goes the same way.
 */
export function useTrackEditor(track: TrackJson | null, onSaved: (t: TrackJson) => void) {
  const [saving, setSaving] = useState(false);
  const [editing, setEditing] = useState<number | null>(null);
  const [retranslating, setRetranslating] = useState<number | null>(null);
  const revision = useRef<{ id: string; revision: number } | null>(null);
  const id = track?.id ?? null;
  const trackRevision = track?.revision ?? 0;
  // The newest revision seen (a stream's snapshot, another save) is what the next edit names.
  useEffect(() => {
    if (!id) return;
    if (revision.current?.id !== id || revision.current.revision < trackRevision)
      revision.current = { id, revision: trackRevision };
  }, [id, trackRevision]);
  const queue = useRef<Promise<unknown>>(Promise.resolve());

  const run = useCallback(
    (call: (rev: number) => Promise<TrackJson>) => {
      if (!id) return Promise.resolve(false);
      const reload = async () => {
        const fresh = await api.get<TrackJson>(`/self-api/v1/translations/${id}`);
        revision.current = { id, revision: fresh.revision };
        setEditing(null);
        onSaved(fresh);
      };
      const step = async () => {
        setSaving(true);
        try {
          const saved = await call(revision.current?.id === id ? revision.current.revision : trackRevision);
          revision.current = { id, revision: saved.revision };
          onSaved(saved);
          return true;
        } catch (err) {
          if (err instanceof ApiClientError && err.code === TranslationCode.EDIT_CONFLICT) {
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
      const next = queue.current.then(step);
      queue.current = next;
      return next;
    },
    [id, onSaved, trackRevision],
  );

  /** Saves one translated segment's text. */
  const save = useCallback(
    (index: number, text: string) =>
      run((rev) =>
        api.patch<TrackJson>(
          `/self-api/v1/translations/${id}`,
          { revision: rev, edits: [{ index, text }] },
          { handleErrors: (code) => code === TranslationCode.EDIT_CONFLICT },
        ),
      ),
    [run, id],
  );

  /**
   * Asks the model again for one segment: a job (202); the track comes back with the segment
   * pending, and the page's track stream brings the new text (saved as an edit by the job).
   */
  const retranslate = useCallback(
    async (index: number) => {
      if (!id) return false;
      setRetranslating(index);
      setEditing(null);
      try {
        onSaved(await api.post<TrackJson>(`/self-api/v1/translations/${id}/segments/${index}/retranslate`));
        return true;
      } catch {
        // refused: the API client showed why
        return false;
      } finally {
        setRetranslating(null);
      }
    },
    [id, onSaved],
  );

  const edit = useCallback((index: number | null) => setEditing(index), []);
  const close = useCallback((index: number) => setEditing((cur) => (cur === index ? null : cur)), []);
  return { save, retranslate, retranslating, saving, editing, edit, close };
}

export type TrackEditor = ReturnType<typeof useTrackEditor>;
