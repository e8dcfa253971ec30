import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import {
  createStorageItem,
  emptyValueOf,
  getItem as defaultGetItem,
  removeItem as defaultRemoveItem,
  setItem as defaultSetItem,
  type StorageLike,
} from './storage-item';

/** Minimal in-memory Web Storage. */
class MemoryStorage implements StorageLike {
  readonly map = new Map<string, string>();
  getItem(key: string): string | null {
    return this.map.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.map.set(key, String(value));
  }
  removeItem(key: string): void {
    this.map.delete(key);
  }
}

let local: MemoryStorage;
let session: MemoryStorage;
let clock: number;
let store: ReturnType<typeof createStorageItem>;

beforeEach(() => {
  local = new MemoryStorage();
  session = new MemoryStorage();
  clock = 1_000_000;
  store = createStorageItem({ local, session, now: () => clock });
});

describe('createStorageItem: setItem', () => {
  it('stores a prefixed JSON record with type, content and timestamp', () => {
    expect(store.setItem('token', 'abc')).toBe(true);
    expect([...local.map.keys()]).toEqual(['clipscribe_token']);
    expect(JSON.parse(local.getItem('clipscribe_token') ?? '')).toEqual({
      type: 'string',
      content: 'abc',
      timestamp: 1_000_000,
    });
    expect(session.map.size).toBe(0);
  });

  it('records the type of each supported value', () => {
    const cases: Array<[string, unknown, string]> = [
      ['s', '', 'string'],
      ['n', 0, 'number'],
      ['b', false, 'boolean'],
      ['o', { a: [1] }, 'object'],
      ['a', [1, 2], 'object'],
      ['z', null, 'object'],
    ];
    for (const [key, value, type] of cases) {
      store.setItem(key, value as never);
      expect(JSON.parse(local.getItem(`clipscribe_${key}`) ?? '').type, key).toBe(type);
    }
  });

  it('writes to sessionStorage when asked', () => {
    store.setItem('k', 1, { session: true });
    expect(session.getItem('clipscribe_k')).not.toBeNull();
    expect(local.getItem('clipscribe_k')).toBeNull();
  });

  it('honours a custom prefix', () => {
    createStorageItem({ local, session, prefix: 'other' }).setItem('k', 1);
    expect(local.getItem('other_k')).not.toBeNull();
  });

  it('rejects values JSON cannot represent', () => {
    expect(() => store.setItem('f', (() => 1) as never)).toThrow(TypeError);
    expect(() => store.setItem('u', undefined as never)).toThrow(TypeError);
    expect(local.map.size).toBe(0);
  });

  it('returns false instead of throwing when the storage refuses the write', () => {
    const full: StorageLike = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => undefined,
    };
    expect(createStorageItem({ local: full, session: full }).setItem('k', 'v')).toBe(false);
  });
});

describe('createStorageItem: getItem', () => {
  it('round-trips every type', () => {
    store.setItem('s', 'hello');
    store.setItem('n', 42.5);
    store.setItem('b', true);
    store.setItem('o', { a: { b: [1, 'x'] } });
    expect(store.getItem('s')).toBe('hello');
    expect(store.getItem('n')).toBe(42.5);
    expect(store.getItem('b')).toBe(true);
    expect(store.getItem('o')).toEqual({ a: { b: [1, 'x'] } });
  });

  it('returns null for missing items', () => {
    expect(store.getItem('nope')).toBeNull();
    expect(store.getItem('nope', { maxAgeMs: 1000 })).toBeNull();
  });

  it('keeps local and session items apart', () => {
    store.setItem('k', 'local');
    store.setItem('k', 'session', { session: true });
    expect(store.getItem('k')).toBe('local');
    expect(store.getItem('k', { session: true })).toBe('session');
  });

  it('returns content up to and including maxAgeMs, the empty value after', () => {
    store.setItem('s', 'v');
    clock += 5000;
    expect(store.getItem('s', { maxAgeMs: 5000 })).toBe('v');
    clock += 1;
    expect(store.getItem('s', { maxAgeMs: 5000 })).toBe('');
    // Without maxAgeMs age does not matter.
    expect(store.getItem('s')).toBe('v');
  });

  it('maps each expired type to its empty value', () => {
    store.setItem('s', 'v');
    store.setItem('n', 7);
    store.setItem('b', true);
    store.setItem('o', { a: 1 });
    clock += 10;
    expect(store.getItem('s', { maxAgeMs: 9 })).toBe('');
    expect(store.getItem('n', { maxAgeMs: 9 })).toBeNull();
    expect(store.getItem('b', { maxAgeMs: 9 })).toBe(false);
    expect(store.getItem('o', { maxAgeMs: 9 })).toEqual({});
  });

  it('returns a fresh empty object each time', () => {
    expect(emptyValueOf('object')).not.toBe(emptyValueOf('object'));
  });

  it('treats maxAgeMs 0 as "written this instant only"', () => {
    store.setItem('n', 3);
    expect(store.getItem('n', { maxAgeMs: 0 })).toBe(3);
    clock += 1;
    expect(store.getItem('n', { maxAgeMs: 0 })).toBeNull();
  });

  it('rejects a negative or NaN maxAgeMs', () => {
    expect(() => store.getItem('k', { maxAgeMs: -1 })).toThrow(RangeError);
    expect(() => store.getItem('k', { maxAgeMs: NaN })).toThrow(RangeError);
  });

  it('treats an item of a different type than requested as missing', () => {
    store.setItem('n', 5);
    const asNumber: number | null = store.getItem('n', { type: 'number' });
    expect(asNumber).toBe(5);
    expect(store.getItem('n', { type: 'string' })).toBeNull();
  });

  it('treats foreign or corrupted values as missing', () => {
    local.setItem('clipscribe_raw', 'not json');
    local.setItem('clipscribe_json', '"just a string"');
    local.setItem('clipscribe_shape', JSON.stringify({ type: 'date', content: 1, timestamp: 0 }));
    local.setItem('clipscribe_ts', JSON.stringify({ type: 'string', content: 'x', timestamp: '0' }));
    for (const k of ['raw', 'json', 'shape', 'ts']) expect(store.getItem(k), k).toBeNull();
  });

  it('ignores unprefixed keys', () => {
    local.setItem('k', JSON.stringify({ type: 'string', content: 'x', timestamp: clock }));
    expect(store.getItem('k')).toBeNull();
  });

  it('returns null when the storage throws on read', () => {
    const broken: StorageLike = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => undefined,
      removeItem: () => undefined,
    };
    expect(createStorageItem({ local: broken, session: broken }).getItem('k')).toBeNull();
  });
});

describe('createStorageItem: removeItem', () => {
  it('removes only the item in the chosen storage', () => {
    store.setItem('k', 1);
    store.setItem('k', 2, { session: true });
    store.removeItem('k');
    expect(store.getItem('k')).toBeNull();
    expect(store.getItem('k', { session: true })).toBe(2);
    store.removeItem('k', { session: true });
    expect(store.getItem('k', { session: true })).toBeNull();
  });

  it('is a no-op for missing items', () => {
    expect(() => store.removeItem('missing')).not.toThrow();
  });
});

describe('default helpers', () => {
  const g = globalThis as { window?: unknown };

  afterEach(() => {
    delete g.window;
  });

  it('do nothing without a window (SSR)', () => {
    expect(g.window).toBeUndefined();
    expect(defaultSetItem('k', 'v')).toBe(false);
    expect(defaultGetItem('k')).toBeNull();
    expect(() => defaultRemoveItem('k')).not.toThrow();
  });

  it('resolve window storage lazily at call time', () => {
    const winLocal = new MemoryStorage();
    const winSession = new MemoryStorage();
    g.window = { localStorage: winLocal, sessionStorage: winSession };
    expect(defaultSetItem('k', 'v')).toBe(true);
    expect(defaultSetItem('k', 's', { session: true })).toBe(true);
    expect(winLocal.getItem('clipscribe_k')).not.toBeNull();
    expect(defaultGetItem('k')).toBe('v');
    expect(defaultGetItem('k', { session: true })).toBe('s');
    defaultRemoveItem('k');
    expect(winLocal.map.size).toBe(0);
  });

  it('survive a window whose storage getter throws', () => {
    g.window = Object.defineProperty({}, 'localStorage', {
      get() {
        throw new Error('SecurityError');
      },
    });
    expect(defaultSetItem('k', 'v')).toBe(false);
    expect(defaultGetItem('k')).toBeNull();
  });
});
