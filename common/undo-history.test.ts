import { describe, expect, it } from 'vitest';
import {
  loadUndoHistory,
  saveUndoHistory,
  UNDO_MAX_STEPS,
  type UndoStep,
  type UndoStore,
} from './undo-history';

/** An in-memory sessionStorage that refuses writes past `quota` characters in all. */
function fakeStore(quota = Infinity): UndoStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  const used = () => [...map.values()].reduce((n, v) => n + v.length, 0);
  return {
    map,
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem(k, v) {
      if (used() - (map.get(k)?.length ?? 0) + v.length > quota) throw new Error('QuotaExceededError');
      map.set(k, v);
    },
    removeItem: (k) => void map.delete(k),
  };
}

const step = (text: string): UndoStep => ({ segments: [{ start: 0, end: 1, text }], speakers: [] });

describe('the undo history kept across a reload', () => {
  it('comes back for the revision it was saved at, and only for that one', () => {
    const store = fakeStore();
    saveUndoHistory(store, 't1', '2026-11-27T09:00:00.000Z', [step('one'), step('two')]);
    expect(loadUndoHistory(store, 't1', '2026-11-27T09:00:00.000Z')).toEqual([step('one'), step('two')]);
    expect(loadUndoHistory(store, 't2', '2026-11-27T09:00:00.000Z')).toEqual([]);
    // Someone saved the transcript since: the old history would undo their edit, so it goes.
    expect(loadUndoHistory(store, 't1', '2026-11-27T09:05:00.000Z')).toEqual([]);
    expect(store.map.size).toBe(0);
  });

  it('keeps the newest steps within its step and size bounds', () => {
    const store = fakeStore();
    const many = Array.from({ length: UNDO_MAX_STEPS + 10 }, (_, i) => step(`edit ${i}`));
    saveUndoHistory(store, 't1', 'r', many);
    const kept = loadUndoHistory(store, 't1', 'r');
    expect(kept).toHaveLength(UNDO_MAX_STEPS);
    expect(kept.at(-1)).toEqual(step(`edit ${UNDO_MAX_STEPS + 9}`));
    const big = [step('a'.repeat(600)), step('b'.repeat(600)), step('c'.repeat(600))];
    saveUndoHistory(store, 't1', 'r', big, 1500);
    expect(loadUndoHistory(store, 't1', 'r')).toEqual(big.slice(1));
  });

  it("makes room by dropping other transcripts' histories, then older steps, and never throws", () => {
    const store = fakeStore(3000);
    saveUndoHistory(store, 'old', 'r', [step('x'.repeat(1500))]);
    saveUndoHistory(store, 't1', 'r', [step('y'.repeat(1000)), step('z'.repeat(1000))]);
    expect(loadUndoHistory(store, 'old', 'r')).toEqual([]);
    expect(loadUndoHistory(store, 't1', 'r')).toHaveLength(2);
    saveUndoHistory(store, 't1', 'r', [step('y'.repeat(2000)), step('z'.repeat(2000))]);
    expect(loadUndoHistory(store, 't1', 'r')).toEqual([step('z'.repeat(2000))]);
    saveUndoHistory(store, 't1', 'r', [step('w'.repeat(5000))]);
    expect(loadUndoHistory(store, 't1', 'r')).toEqual([]);
  });

  it('ignores a damaged or foreign value and forgets an emptied history', () => {
    const store = fakeStore();
    store.setItem('clipscribe_undo_t1', '{not json');
    expect(loadUndoHistory(store, 't1', 'r')).toEqual([]);
    store.setItem('clipscribe_undo_t1', JSON.stringify({ v: 1, revision: 'r', steps: [{ segments: 'x' }] }));
    expect(loadUndoHistory(store, 't1', 'r')).toEqual([]);
    saveUndoHistory(store, 't1', 'r', [step('one')]);
    saveUndoHistory(store, 't1', 'r', []);
    expect(store.map.size).toBe(0);
    expect(loadUndoHistory(undefined, 't1', 'r')).toEqual([]);
  });
});
