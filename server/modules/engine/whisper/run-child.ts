// Starts one whisper child and watches it: its messages are handed on as they come, a child
// silent for too long is killed (the watchdog), a cancel kills it at once, and the promise
// settles when the process is gone. What the messages mean is relay.ts's business.
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import type { Logger } from '../../../logger';
import { spawnTied } from '../../../process/tied-spawn';
import { EngineError } from '../types';
import type { ChildCommand } from './child-command';
import type { ChildJob, ChildMessage } from './child-protocol';

/** After 'done', the child has this long to exit by itself. */
const EXIT_GRACE_MS = 2000;
/** A SIGKILLed child is reaped in milliseconds; never wait longer than this to settle a cancel. */
export const KILL_SETTLE_MS = 500;
const STDERR_TAIL = 4000;

/** How the process ended, once it has: its exit code or signal, and the end of what it wrote to stderr. */
export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderrTail: string;
}

export interface ChildControl {
  /** Re-arms the watchdog, for a longer silence than usual (diarization reports nothing until done). */
  armWatchdog(ms: number): void;
  /** The job is complete: the child exits by itself; make sure it does. */
  expectExit(): void;
}

export interface RunChildOptions {
  command: ChildCommand;
  job: ChildJob;
  watchdogMs: number;
  signal?: AbortSignal;
  logger?: Pick<Logger, 'debug' | 'warn'>;
  onSpawn?: (pid: number) => void;
  /** Handles one message; a throw ends the job with that error. */
  onMessage(msg: ChildMessage, control: ChildControl): void;
  /** Running children, each with how to cancel it (the engine's close() uses it). */
  running: Map<ChildProcess, () => void>;
}

/** Resolves with how the child ended; rejects (after killing it) on cancel, watchdog or a failing handler. */
export function runChild(o: RunChildOptions): Promise<ChildExit> {
  return new Promise<ChildExit>((resolve, reject) => {
    const child = spawnTied(
      process.execPath,
      [...o.command.execArgv, o.command.script, JSON.stringify(o.job)],
      {
        // fd 3 carries the child's messages; stdout stays unused (native code may print there).
        stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
        windowsHide: true,
      },
    );
    let failure: Error | undefined;
    let settled = false;
    let stderrTail = '';
    let watchdog: NodeJS.Timeout | undefined;
    let exitTimer: NodeJS.Timeout | undefined;
    let settleTimer: NodeJS.Timeout | undefined;

    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(watchdog);
      clearTimeout(exitTimer);
      clearTimeout(settleTimer);
      o.signal?.removeEventListener('abort', onAbort);
      o.running.delete(child);
      fn();
    };
    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    };
    /** Ends the job with `err`: kills the child, and rejects once it is gone (or soon anyway). */
    const fail = (err: Error) => {
      if (failure) return;
      failure = err;
      kill();
      settleTimer = setTimeout(() => settle(() => reject(err)), KILL_SETTLE_MS);
    };
    const armWatchdog = (ms = o.watchdogMs) => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        o.logger?.warn({ pid: child.pid, watchdogMs: ms }, 'whisper child silent too long: killing it');
        fail(new EngineError('engine_timeout', `the whisper engine gave no sign of life for ${ms} ms`, true));
      }, ms);
    };
    function onAbort() {
      fail(new EngineError('canceled', 'transcription canceled'));
    }
    const control: ChildControl = {
      armWatchdog,
      expectExit() {
        exitTimer = setTimeout(kill, EXIT_GRACE_MS);
      },
    };
    o.running.set(child, () => fail(new EngineError('canceled', 'the whisper engine is closed')));

    o.signal?.addEventListener('abort', onAbort, { once: true });
    armWatchdog();
    child.on('spawn', () => {
      try {
        if (child.pid !== undefined) o.onSpawn?.(child.pid);
      } catch (err) {
        fail(err instanceof Error ? err : new Error(String(err)));
      }
    });
    child.on('error', (err) => {
      fail(new EngineError('engine_crashed', `cannot run the whisper child: ${err.message}`, true));
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      stderrTail = (stderrTail + text).slice(-STDERR_TAIL);
    });
    const lines = createInterface({ input: child.stdio[3] as Readable, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (!line || settled || failure) return;
      armWatchdog();
      let msg: ChildMessage;
      try {
        msg = JSON.parse(line) as ChildMessage;
      } catch {
        o.logger?.warn({ line: line.slice(0, 200) }, 'unreadable message from the whisper child');
        return;
      }
      try {
        o.onMessage(msg, control);
      } catch (err) {
        // A throwing onSegment/onProgress ends the job with its own error.
        fail(err instanceof Error ? err : new Error(String(err)));
      }
    });
    child.on('close', (code, signal) => {
      settle(() => (failure ? reject(failure) : resolve({ code, signal, stderrTail })));
    });
  });
}
