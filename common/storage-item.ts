// Typed, prefixed, optionally expiring values in Web Storage.
// Each item is stored as JSON {type, content, timestamp} so a reader can tell
// how old it is and what "empty" means for it once it has expired.

/** The subset of the Web Storage API we need; lets tests pass an in-memory fake. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type StoredType = 'string' | 'number' | 'boolean' | 'object';
export type StoredValue = string | number | boolean | object | null;
interface TypeMap {
  string: string;
  number: number | null;
  boolean: boolean;
  object: object | null;
}

interface StoredRecord {
  type: StoredType;
  content: unknown;
  timestamp: number;
}

export interface SetOptions {
  /** Use sessionStorage instead of localStorage. */
  session?: boolean;
}

export interface GetOptions<T extends StoredType = StoredType> extends SetOptions {
  /** Items older than this are reported as the empty value of their type. */
  maxAgeMs?: number;
  /** Expected type: an item stored with a different type is treated as missing. */
  type?: T;
}

export interface StorageItem {
  /** Returns false when the storage is unavailable or rejects the write (e.g. quota). */
  setItem(key: string, value: StoredValue, options?: SetOptions): boolean;
  getItem<T extends StoredType>(key: string, options: GetOptions<T> & { type: T }): TypeMap[T] | null;
  getItem(key: string, options?: GetOptions): StoredValue;
  removeItem(key: string, options?: SetOptions): void;
}

export interface StorageItemConfig {
  local: StorageLike | undefined;
  session: StorageLike | undefined;
  /** Clock in epoch milliseconds; injectable for tests. */
  now?: () => number;
  prefix?: string;
}

export const STORAGE_PREFIX = 'clipscribe';

const TYPES: readonly StoredType[] = ['string', 'number', 'boolean', 'object'];

/** What an expired item reads as: '' | null | false | {}. */
export function emptyValueOf(type: StoredType): StoredValue {
  switch (type) {
    case 'string':
      return '';
    case 'number':
      return null;
    case 'boolean':
      return false;
    case 'object':
      return {};
  }
}

function typeOf(value: StoredValue): StoredType {
  const t = typeof value;
  if (t === 'string' || t === 'number' || t === 'boolean' || t === 'object') return t;
  // Functions, symbols, bigints and undefined do not survive JSON.
  throw new TypeError(`storage-item: cannot store a value of type ${t}`);
}

function parseRecord(raw: string | null): StoredRecord | null {
  if (raw === null) return null;
  try {
    const r: unknown = JSON.parse(raw);
    if (
      typeof r === 'object' &&
      r !== null &&
      'type' in r &&
      'timestamp' in r &&
      TYPES.includes(r.type as StoredType) &&
      typeof r.timestamp === 'number'
    ) {
      return {
        type: r.type as StoredType,
        content: 'content' in r ? r.content : null,
        timestamp: r.timestamp,
      };
    }
  } catch {
    // Foreign or corrupted value under our key: treat as missing.
  }
  return null;
}

// Resolvers rather than objects so the default instance can look up
// window storage lazily (and survive SSR / disabled storage).
function build(
  resolve: (session: boolean) => StorageLike | undefined,
  now: () => number,
  prefix: string,
): StorageItem {
  const fullKey = (key: string) => `${prefix}_${key}`;

  function setItem(key: string, value: StoredValue, options: SetOptions = {}): boolean {
    const record: StoredRecord = { type: typeOf(value), content: value, timestamp: now() };
    const storage = resolve(options.session ?? false);
    if (!storage) return false;
    try {
      storage.setItem(fullKey(key), JSON.stringify(record));
      return true;
    } catch {
      return false; // QuotaExceededError, Safari private mode, ...
    }
  }

  function getItem(key: string, options: GetOptions = {}): StoredValue {
    const { maxAgeMs, type } = options;
    if (maxAgeMs !== undefined && !(maxAgeMs >= 0)) {
      throw new RangeError('storage-item: maxAgeMs must be a non-negative number');
    }
    const storage = resolve(options.session ?? false);
    if (!storage) return null;
    let raw: string | null;
    try {
      raw = storage.getItem(fullKey(key));
    } catch {
      return null;
    }
    const record = parseRecord(raw);
    if (!record || (type !== undefined && record.type !== type)) return null;
    if (maxAgeMs !== undefined && now() - record.timestamp > maxAgeMs) return emptyValueOf(record.type);
    return record.content as StoredValue;
  }

  function removeItem(key: string, options: SetOptions = {}): void {
    try {
      resolve(options.session ?? false)?.removeItem(fullKey(key));
    } catch {
      // Nothing to remove from an unusable storage.
    }
  }

  return { setItem, getItem: getItem as StorageItem['getItem'], removeItem };
}

/** Storage helpers bound to explicit Storage objects (tests, workers, custom backends). */
export function createStorageItem(config: StorageItemConfig): StorageItem {
  const { local, session, now = Date.now, prefix = STORAGE_PREFIX } = config;
  return build((s) => (s ? session : local), now, prefix);
}

type StorageWindow = { localStorage?: StorageLike; sessionStorage?: StorageLike };

// Accessing window.localStorage can throw (sandboxed iframes, blocked cookies).
function windowStorage(session: boolean): StorageLike | undefined {
  try {
    const w = (globalThis as { window?: StorageWindow }).window;
    return session ? w?.sessionStorage : w?.localStorage;
  } catch {
    return undefined;
  }
}

const defaultItem = build(windowStorage, () => Date.now(), STORAGE_PREFIX);

/** Default helpers backed by window.localStorage / sessionStorage; no-ops (null) where unavailable, e.g. SSR. */
export const setItem: StorageItem['setItem'] = defaultItem.setItem;
export const getItem: StorageItem['getItem'] = defaultItem.getItem;
export const removeItem: StorageItem['removeItem'] = defaultItem.removeItem;
