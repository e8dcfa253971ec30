import { describe, expect, it } from 'vitest';
import { ERROR_CODES, PLAN_LIMIT_CODES, httpStatusOf, planLimitAction } from './error-codes';

describe('plan-limit codes', () => {
  it('are exactly the refusals a better plan would lift', () => {
    expect([...PLAN_LIMIT_CODES].sort()).toEqual(
      [41301, 40302, 40303, 42902, 40304, 40305, 40363, 40371, 40381, 40391].sort(),
    );
  });
});

describe('the way past a plan limit', () => {
  it('leads a seats refusal to the seats control when the seats are bought through Stripe, else to the plans', () => {
    expect(planLimitAction(40363, { add_seats: true, billed: true, rank: null })).toBe('seats');
    // All the plan's seats bought: a bigger plan, changed where the subscription is.
    expect(planLimitAction(40363, { add_seats: false, billed: true, rank: 'ADVANCED' })).toBe('seats');
    expect(planLimitAction(40363, { add_seats: false, billed: false, rank: 'BASIC' })).toBe('plans');
    expect(planLimitAction(40363, null)).toBe('plans');
    expect(planLimitAction(40302, { add_seats: true })).toBe('plans');
    expect(planLimitAction(404, null)).toBeNull();
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
