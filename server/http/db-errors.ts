// PostgreSQL's "data exception" codes that bad input (not a bug in our SQL) can cause: a NUL or a
// byte sequence text cannot hold, a value out of range or too long. Input checks refuse these
// first (common/text.ts); this is the net, so a case they miss is a clear 4xx, never a 500.
const INPUT_CODES = new Set(['22021', '22P05', '22P02', '22001', '22003', '54000']);

/** True when the database refused a value (the caller's input), found anywhere in the cause chain. */
export function isRefusedInput(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && INPUT_CODES.has(code)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
