import { useCallback, useMemo, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { Segment } from '../../../common/segments';
import type { TrackJson } from '../../../common/translation-types';
import { useStoredItem } from '../../lib/use-stored-item';
import { useTrackEditor } from '../../lib/use-track-editor';
import { useTracks } from '../../lib/use-tracks';
import { trackHref } from './track-bar';

/**
 * The transcript page's translations: the tracks, the one chosen in the address (?track=ja),
 * its segments (the original's timings and speakers with the translated text), its editor, the
 * translate dialog and the side-by-side choice (remembered in this browser).
 */
export function useTrackView(transcriptId: string, enabled: boolean, segments: readonly Segment[]) {
  const tracks = useTracks(transcriptId, enabled);
  const [params] = useSearchParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const code = params.get('track');
  const selected = (code && tracks.byLanguage.get(code.toLowerCase())) || null;
  const [dialog, setDialog] = useState(false);
  const [glossary, setGlossary] = useState(false);
  const [sideSaved, setSideBySide] = useStoredItem<boolean>('track-side-by-side', 'boolean');
  const sideBySide = sideSaved !== false;
  const { put } = tracks;
  const editor = useTrackEditor(selected, put);

  const shown = useMemo<Segment[] | null>(
    () =>
      selected
        ? segments.map((s, i) => {
            const { words: _words, ...rest } = s;
            return { ...rest, text: selected.texts[i] ?? '' };
          })
        : null,
    [selected, segments],
  );

  const choose = useCallback(
    (language: string | null) =>
      void navigate(trackHref(search, language), { replace: true, preventScrollReset: true }),
    [navigate, search],
  );
  const started = useCallback(
    (track: TrackJson) => {
      setDialog(false);
      choose(track.language);
    },
    [choose],
  );
  const retry = useCallback(
    (track: TrackJson) => {
      tracks.create(track.language).catch(() => undefined);
    },
    [tracks],
  );

  return {
    tracks,
    selected,
    /** The chosen track's segments; null: the original is shown. */
    shown,
    editor,
    dialog,
    openDialog: () => setDialog(true),
    closeDialog: () => setDialog(false),
    glossary,
    openGlossary: () => setGlossary(true),
    closeGlossary: () => setGlossary(false),
    started,
    retry,
    sideBySide,
    setSideBySide,
  };
}
