import { describe, it, expect, vi, afterEach } from 'vitest';
import { randomCode } from './random-code';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('randomCode', () => {
  it('returns exactly the requested length', () => {
    for (const n of [1, 2, 6, 32, 1000, 70000]) {
      expect(randomCode(n)).toHaveLength(n);
    }
  });

  it('uses only uppercase letters and digits', () => {
    expect(randomCode(5000)).toMatch(/^[A-Z0-9]+$/);
  });

  it('throws RangeError for non-positive or non-integer lengths', () => {
    for (const n of [0, -1, 1.5, NaN, Infinity, -Infinity]) {
      expect(() => randomCode(n), String(n)).toThrow(RangeError);
    }
  });

  it('draws every symbol with a roughly uniform frequency', () => {
    const draws = 36 * 2000;
    const counts = new Map<string, number>();
    for (const c of randomCode(draws)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(36);
    // Expected 2000 each; sd ≈ 44, so ±400 is ~9 sd: flake-free, yet catches gross bias.
    for (const c of ALPHABET) {
      const n = counts.get(c) ?? 0;
      expect(n, c).toBeGreaterThan(1600);
      expect(n, c).toBeLessThan(2400);
    }
  });

  it('produces unique codes', () => {
    const codes = new Set(Array.from({ length: 10000 }, () => randomCode(12)));
    expect(codes.size).toBe(10000);
  });

  it('rejects biased bytes (252–255) instead of wrapping them', () => {
    // Feed 252..255 (must be skipped), then 0 → 'A' and 35 → '9'.
    const script = [252, 253, 254, 255, 0, 35];
    let i = 0;
    vi.spyOn(globalThis.crypto, 'getRandomValues').mockImplementation(
      <T extends ArrayBufferView | null>(arr: T): T => {
        const bytes = arr as unknown as Uint8Array;
        for (let k = 0; k < bytes.length; k++) bytes[k] = script[i++ % script.length] ?? 0;
        return arr;
      },
    );
    // Without rejection, 252 % 36 = 0 and 253 % 36 = 1 would have given 'AB'.
    expect(randomCode(2)).toBe('A9');
  });
});
