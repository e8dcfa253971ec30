import { useCallback, useEffect, useRef, useState } from 'react';
import type { Segment } from '../../common/segments';
import { getItem, setItem } from '../../common/storage-item';

const SKIP_SECONDS = 5;
const SPEED_KEY = 'player-speed';
/** The speeds the player offers (the browser's own menu may set others; they are kept too). */
export const PLAYBACK_SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2] as const;

/** The keys go to what has the focus: a field, or a slider (a segment's edge moved by arrows). */
function isTyping(target: EventTarget | null) {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) ||
      target.getAttribute('role') === 'slider')
  );
}

export interface MediaPlayerOptions {
  segments: Segment[];
  mediaUrl: string | null | undefined;
  /** Keyboard shortcuts on the whole page: space/k, ←/j, →/l; Ctrl+Z calls onUndo. */
  keyboard?: { onUndo?: () => void };
}

/**
 * The player beside a transcript: which segment is playing (kept in view), seeking from a
 * segment, whether the browser can play the file, the keyboard shortcuts, and the playback speed
 * the person chose last (remembered in this browser).
 */
export function useMediaPlayer({ segments, mediaUrl, keyboard }: MediaPlayerOptions) {
  const ref = useRef<HTMLMediaElement | null>(null);
  const currentRow = useRef<HTMLLIElement | null>(null);
  const [time, setTime] = useState(0);
  const [unplayable, setUnplayable] = useState(false);
  const [speed, setSpeedState] = useState(1);
  const current = segments.findIndex((s) => time >= s.start && time < s.end);

  // A format the browser cannot play errors the media element, possibly before hydration,
  // when no React handler was there to see it: listen, and look once. The speed chosen in the
  // player's own menu is remembered and applied to the next file.
  useEffect(() => {
    const el = ref.current;
    if (!el || !mediaUrl) return;
    const check = () => setUnplayable(el.error !== null);
    const remember = () => {
      setSpeedState(el.playbackRate);
      setItem(SPEED_KEY, el.playbackRate);
    };
    el.addEventListener('error', check);
    // Also how the stored speed reaches the speed control: setting the rate fires 'ratechange'.
    el.addEventListener('ratechange', remember);
    const stored = getItem(SPEED_KEY, { type: 'number' });
    if (stored && stored >= 0.25 && stored <= 4) el.playbackRate = el.defaultPlaybackRate = stored;
    const timer = setTimeout(check, 0);
    return () => {
      el.removeEventListener('error', check);
      el.removeEventListener('ratechange', remember);
      clearTimeout(timer);
    };
  }, [mediaUrl]);

  // The segment being played stays in view.
  useEffect(() => {
    currentRow.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  }, [current]);

  const seek = useCallback((seconds: number) => {
    const media = ref.current;
    if (!media) return;
    media.currentTime = Math.max(0, seconds);
    setTime(media.currentTime);
    void media.play().catch(() => undefined);
  }, []);

  /** Plays at `rate` from now on, here and (remembered) on the next file. */
  const setSpeed = useCallback((rate: number) => {
    const media = ref.current;
    setSpeedState(rate);
    setItem(SPEED_KEY, rate);
    if (media) media.playbackRate = media.defaultPlaybackRate = rate;
  }, []);

  /** Moves the player to `seconds` without playing (a link opened the page there). */
  const cue = useCallback((seconds: number) => {
    const media = ref.current;
    if (media) media.currentTime = Math.max(0, seconds);
    setTime(Math.max(0, seconds));
  }, []);

  const onUndo = keyboard?.onUndo;
  const withKeys = !!keyboard;
  useEffect(() => {
    if (!withKeys) return;
    const onKey = (e: KeyboardEvent) => {
      if (isTyping(e.target) || e.altKey) return;
      const media = ref.current;
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'z') {
        if (!onUndo) return;
        e.preventDefault();
        onUndo();
        return;
      }
      if (e.ctrlKey || e.metaKey || !media) return;
      if (e.key === ' ' || e.key === 'k') {
        e.preventDefault();
        if (media.paused) void media.play().catch(() => undefined);
        else media.pause();
      } else if (e.key === 'ArrowLeft' || e.key === 'j') {
        e.preventDefault();
        media.currentTime = Math.max(0, media.currentTime - SKIP_SECONDS);
      } else if (e.key === 'ArrowRight' || e.key === 'l') {
        e.preventDefault();
        media.currentTime = Math.min(media.duration || Infinity, media.currentTime + SKIP_SECONDS);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [withKeys, onUndo]);

  const onTimeUpdate = useCallback(
    (e: React.SyntheticEvent<HTMLMediaElement>) => setTime(e.currentTarget.currentTime),
    [],
  );

  return { ref, time, current, currentRow, seek, cue, unplayable, onTimeUpdate, speed, setSpeed };
}
