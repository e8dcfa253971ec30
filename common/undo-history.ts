// The transcript editor's undo history, kept in the tab's sessionStorage so a reload does not lose
// it. Stored per transcript with the revision (updated_at) it leads back from: a history saved
// for another revision (someone edited meanwhile) is never restored. Bounded in steps and size.
import type { Segment } from './segments';
import type { Speaker } from './speakers';
import type { StorageLike } from './storage-item';

/** A version of the transcript an undo goes back to. */
export interface UndoStep {
  segments: Segment[];
  speakers: Speaker[];
}

/** Web Storage, whose keys can be listed (to make room); tests pass a fake. */
export type UndoStore = StorageLike & { readonly length?: number; key?(index: number): string | null };

export const UNDO_MAX_STEPS = 50;
/** Characters of JSON kept per transcript: sessionStorage holds ~5 MB for the whole site. */
export const UNDO_MAX_CHARS = 1_000_000;

const PREFIX = 'clipscribe_undo_';
const keyOf = (transcriptId: string) => `${PREFIX}${transcriptId}`;

/** The newest steps whose JSON fits in `maxChars`, as JSON texts (oldest first). */
function newestThatFit(steps: readonly UndoStep[], maxChars: number): string[] {
  const texts: string[] = [];
  let total = 0;
  for (let i = steps.length - 1; i >= 0 && texts.length < UNDO_MAX_STEPS; i--) {
    const text = JSON.stringify(steps[i]);
    if (total + text.length > maxChars) break;
    texts.unshift(text);
    total += text.length;
  }
  return texts;
}

function write(store: UndoStore, key: string, revision: string, texts: string[]): boolean {
  try {
    store.setItem(key, `{"v":1,"revision":${JSON.stringify(revision)},"steps":[${texts.join(',')}]}`);
    return true;
  } catch {
    return false; // quota, private mode
  }
}

/** Other transcripts' histories, dropped when this one does not fit beside them. */
function dropOthers(store: UndoStore, keep: string) {
  if (typeof store.length !== 'number' || !store.key) return;
  const others: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const k = store.key(i);
    if (k?.startsWith(PREFIX) && k !== keep) others.push(k);
  }
  for (const k of others) store.removeItem(k);
}

/** Keeps `steps` (oldest first) as the history that leads back from `revision`. */
export function saveUndoHistory(
  store: UndoStore | undefined,
  transcriptId: string,
  revision: string,
  steps: readonly UndoStep[],
  maxChars = UNDO_MAX_CHARS,
): void {
  if (!store) return;
  const key = keyOf(transcriptId);
  try {
    if (steps.length === 0) return store.removeItem(key);
    let texts = newestThatFit(steps, maxChars);
    if (write(store, key, revision, texts)) return;
    dropOthers(store, key);
    // Still too much for what the browser gives: fewer steps, down to none.
    while (texts.length > 0) {
      if (write(store, key, revision, texts)) return;
      texts = texts.slice(Math.ceil(texts.length / 2));
    }
    store.removeItem(key);
  } catch {
    // An unusable storage keeps no history; the editor works without it.
  }
}

const isStep = (s: unknown): s is UndoStep =>
  !!s &&
  typeof s === 'object' &&
  Array.isArray((s as UndoStep).segments) &&
  Array.isArray((s as UndoStep).speakers) &&
  (s as UndoStep).segments.every(
    (seg) =>
      !!seg && typeof seg.start === 'number' && typeof seg.end === 'number' && typeof seg.text === 'string',
  );

/** The history saved for `revision` of the transcript; empty when none, or saved for another. */
export function loadUndoHistory(
  store: UndoStore | undefined,
  transcriptId: string,
  revision: string,
): UndoStep[] {
  if (!store) return [];
  try {
    const raw = store.getItem(keyOf(transcriptId));
    if (!raw) return [];
    const saved = JSON.parse(raw) as { v?: unknown; revision?: unknown; steps?: unknown };
    if (saved.v !== 1 || saved.revision !== revision || !Array.isArray(saved.steps)) {
      // Edited elsewhere since (or not ours): its steps would undo someone else's work.
      store.removeItem(keyOf(transcriptId));
      return [];
    }
    // A damaged step would leave a gap in the history: all of it, or nothing.
    return saved.steps.every(isStep) ? (saved.steps as UndoStep[]).slice(-UNDO_MAX_STEPS) : [];
  } catch {
    return [];
  }
}

/** The tab's sessionStorage, when the page may use it. */
export function sessionUndoStore(): UndoStore | undefined {
  try {
    return (globalThis as { sessionStorage?: UndoStore }).sessionStorage;
  } catch {
    return undefined;
  }
}
