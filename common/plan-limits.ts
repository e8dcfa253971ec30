// API error codes that mean "your plan does not allow this": the client offers a way to /pricing
// with them. server/api/plan-limit-codes.test.ts keeps this list in step with the server's codes.
export const PLAN_LIMIT_CODES: readonly number[] = [41301, 40302, 40303, 42902, 40304, 40305];

export function isPlanLimit(code: number): boolean {
  return PLAN_LIMIT_CODES.includes(code);
}
