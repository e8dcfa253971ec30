import { useCallback, useMemo, useSyncExternalStore } from 'react';
import { getItem, setItem, type StoredType, type StoredValue } from '../../common/storage-item';

// A value this browser remembers (common/storage-item.ts), read without a hydration mismatch:
// the server and the first client render see null, then the stored value. Writes here and in
// other tabs update every reader.
const CHANGED = 'clipscribe:stored-item';

function subscribe(onChange: () => void) {
  window.addEventListener('storage', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener('storage', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

export function useStoredItem<V extends StoredValue>(
  key: string,
  type: StoredType,
): [V | null, (value: V) => void] {
  // The snapshot is the JSON text, so an unchanged value compares equal between reads.
  const raw = useSyncExternalStore(
    subscribe,
    () => JSON.stringify(getItem(key, { type }) ?? null),
    () => 'null',
  );
  const value = useMemo(() => JSON.parse(raw) as V | null, [raw]);
  const set = useCallback(
    (next: V) => {
      setItem(key, next);
      window.dispatchEvent(new Event(CHANGED));
    },
    [key],
  );
  return [value, set];
}
