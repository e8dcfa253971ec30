// The object store's health as this process last saw it. A store that stopped answering held
// every call for its whole socket timeout, twice (the fault matrix: "start transcription" answered
// 503 after 66 s, and each later request waited as long). Once a call to the store meets silence
// (its socket timed out), the store counts as down: calls fail at once (503 with Retry-After) while a probe asks
// the store every few seconds, and the first answer from it brings it back.
import { outageOf } from '../../outage';

/**
 * What a call made while the store is down fails with: an outage (server/outage.ts knows its
 * name), so 503. Not one the AWS SDK retries (no status, no transient name): it would only spend
 * the client's retry budget.
 */
export class StoreDownError extends Error {
  constructor() {
    super('the object store did not answer a moment ago: trying again shortly');
    this.name = 'StoreDownError';
  }
}

/**
 * Silence: a connection or a socket that timed out (the SDK's TimeoutError). Only that marks the
 * store down: a reset keep-alive socket is common under load and its retry succeeds (the load run
 * saw 13 uploads refused when resets counted), and a refused connection fails at once anyway.
 */
function silent(err: unknown): boolean {
  const e = err as { name?: unknown; code?: unknown } | null;
  // The SDK names a reset or refused connection TimeoutError too; its code tells them apart.
  return e?.name === 'TimeoutError' && !(typeof e.code === 'string' && IMMEDIATE.has(e.code));
}
const IMMEDIATE = new Set(['ECONNRESET', 'EPIPE', 'ECONNREFUSED', 'ECONNABORTED']);

/** No answer at all (silence, a refused or reset connection): the probe keeps the store down. */
function unanswered(err: unknown): boolean {
  const status = (err as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  return status === undefined && outageOf(err) === 'unavailable';
}

export interface StoreHealth {
  /** Throws StoreDownError while the store is down. */
  assertUp(): void;
  /** A call to the store failed with `err`: silence marks the store down. */
  failed(err: unknown): void;
  isDown(): boolean;
  close(): void;
}

export function createStoreHealth(opts: {
  /** One cheap question to the store, with short timeouts; an answer of any kind means it is back. */
  probe: () => Promise<unknown>;
  probeEveryMs?: number;
  /** Told when the store goes down (with the error that showed it) or comes back. */
  onChange?: (down: boolean, cause?: unknown) => void;
}): StoreHealth {
  const everyMs = opts.probeEveryMs ?? 2_000;
  let down = false;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;

  const probeLater = () => {
    if (closed) return;
    timer = setTimeout(() => {
      void opts.probe().then(
        () => up(),
        // A refusal (403, 404 …) is an answer too: only another outage keeps it down.
        (err: unknown) => (unanswered(err) ? probeLater() : up()),
      );
    }, everyMs);
    timer.unref();
  };
  const up = () => {
    if (!down) return;
    down = false;
    opts.onChange?.(false);
  };

  return {
    assertUp() {
      if (down) throw new StoreDownError();
    },
    failed(err) {
      if (down || !silent(err)) return;
      down = true;
      opts.onChange?.(true, err);
      probeLater();
    },
    isDown: () => down,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
