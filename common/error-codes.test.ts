import { describe, expect, it } from 'vitest';
import { ERROR_CODES, PLAN_LIMIT_CODES, httpStatusOf } from './error-codes';

describe('plan-limit codes', () => {
  it('are exactly the refusals a better plan would lift', () => {
    expect([...PLAN_LIMIT_CODES].sort()).toEqual(
      [41301, 40302, 40303, 42902, 40304, 40305, 40363, 40371, 40381].sort(),
    );
  });
});

describe('the error code list', () => {
  const all = Object.values(ERROR_CODES).flatMap((area) => Object.values(area) as number[]);

  it('gives each reason its own code', () => {
    expect(new Set(all).size).toBe(all.length);
  });

  it('sends each code with the HTTP status of its first three digits', () => {
    expect(httpStatusOf(404)).toBe(404);
    expect(httpStatusOf(40301)).toBe(403);
    expect(httpStatusOf(50211)).toBe(502);
    expect(httpStatusOf(10422)).toBe(400);
    for (const code of all) expect(httpStatusOf(code)).toBe(code < 1000 ? code : Math.floor(code / 100));
  });
});
