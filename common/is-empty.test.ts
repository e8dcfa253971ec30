import { describe, it, expect } from 'vitest';
import { isEmpty } from './is-empty';

describe('isEmpty', () => {
  it('is true for absent values and their string forms', () => {
    expect(isEmpty(null)).toBe(true);
    expect(isEmpty(undefined)).toBe(true);
    expect(isEmpty('')).toBe(true);
    expect(isEmpty('null')).toBe(true);
    expect(isEmpty('undefined')).toBe(true);
  });

  it('is true for empty arrays and plain objects', () => {
    expect(isEmpty([])).toBe(true);
    expect(isEmpty({})).toBe(true);
    expect(isEmpty(Object.create(null))).toBe(true);
  });

  it('is false for every number and boolean', () => {
    for (const v of [0, -0, 1, -1, NaN, Infinity, -Infinity, 0.5, false, true]) {
      expect(isEmpty(v), String(v)).toBe(false);
    }
  });

  it('is false for non-empty strings, including look-alikes', () => {
    for (const v of [' ', '0', 'false', 'NULL', 'Undefined', 'null ', 'a']) {
      expect(isEmpty(v), JSON.stringify(v)).toBe(false);
    }
  });

  it('is false for non-empty arrays and objects', () => {
    expect(isEmpty([undefined])).toBe(false);
    expect(isEmpty([0])).toBe(false);
    expect(isEmpty(new Array(3))).toBe(false);
    expect(isEmpty({ a: undefined })).toBe(false);
    expect(isEmpty({ [Symbol('s')]: 1 })).toBe(false);
    expect(isEmpty(Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }))).toBe(false);
  });

  it('is false for non-plain objects and other types', () => {
    expect(isEmpty(new Date(0))).toBe(false);
    expect(isEmpty(new Map())).toBe(false);
    expect(isEmpty(new (class Foo {})())).toBe(false);
    expect(isEmpty(() => undefined)).toBe(false);
    expect(isEmpty(Symbol('x'))).toBe(false);
    expect(isEmpty(0n)).toBe(false);
  });
});
