// Whose completion runs next on a model that does one at a time (the local child has one
// sequence). Interactive ones (a person waiting for an answer) go before waiting batch ones (the
// sections of a summary, a translation's batches); each kind keeps its order. A waiter whose
// signal aborts leaves the line at once.

export interface Turns {
  /** Resolves when it is the caller's turn, with the function that ends it. */
  take(opts?: { interactive?: boolean; signal?: AbortSignal }): Promise<() => void>;
}

interface Waiter {
  interactive: boolean;
  grant(): void;
}

export function createTurns(): Turns {
  const line: Waiter[] = [];
  let busy = false;

  const next = () => {
    if (busy) return;
    const i = line.findIndex((w) => w.interactive);
    const waiter = line.splice(i >= 0 ? i : 0, 1)[0];
    if (!waiter) return;
    busy = true;
    waiter.grant();
  };

  return {
    take(opts = {}) {
      return new Promise((resolve, reject) => {
        const { signal } = opts;
        if (signal?.aborted) return reject(signal.reason);
        let ended = false;
        const end = () => {
          if (ended) return;
          ended = true;
          busy = false;
          next();
        };
        const onAbort = () => {
          const at = line.indexOf(waiter);
          if (at < 0) return; // already granted: the holder ends its turn itself
          line.splice(at, 1);
          reject(signal!.reason);
        };
        const waiter: Waiter = {
          interactive: opts.interactive === true,
          grant: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve(end);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        line.push(waiter);
        next();
      });
    },
  };
}
