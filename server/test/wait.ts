/**
 * Polls `check` until it gives a value (anything but undefined, null or false) and returns it.
 * After `ms` it throws, saying `what` (with the last value seen) — tests wait for a state, never
 * for a fixed time.
 */
export async function waitFor<T>(
  check: () => T | Promise<T>,
  opts: { ms?: number; everyMs?: number; what?: string | ((last: T | undefined) => string) } = {},
): Promise<Exclude<T, undefined | null | false>> {
  const { ms = 5_000, everyMs = 50, what = 'the awaited state' } = opts;
  const deadline = Date.now() + ms;
  let last: T | undefined;
  for (;;) {
    last = await check();
    if (last !== undefined && last !== null && last !== false)
      return last as Exclude<T, undefined | null | false>;
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${ms} ms waiting for ${typeof what === 'string' ? what : what(last)}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The time limit for a test that runs real child processes (whisper.cpp decoding minutes of audio,
 * a PGlite initdb in a spawned command): seconds on a quiet machine, several times that when the
 * two cores are shared. A limit, not a speed target (those live in bench/).
 */
export const SLOW_PROCESS_TIMEOUT_MS = 120_000;
