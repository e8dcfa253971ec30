// The `local` adapter: a GGUF instruct model run by llama.cpp (node-llama-cpp) in a child process
// of its own (local-child.ts), like the whisper engine: native code never runs in the server, a
// cancel kills the child, a crash fails only the completion that was running. The child stays up
// between completions (loading a model takes seconds, and consecutive tasks on one transcript
// reuse its evaluated prefix) and is stopped after a while without work, giving its memory back.
// Structured output is constrained by a grammar written from the schema (gbnf.ts: compact JSON,
// no whitespace to spend tokens on), so even a weak model returns the schema's shape; the value
// is validated as well, with one repair round.
import { spawn, type ChildProcess } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Logger } from '../../logger';
import { SERVER_BUNDLE_DIR } from '../../paths';
import type { ModelProvisioner } from '../engine/models/provision';
import { compactGrammar } from './gbnf';
import { checkJson, repairMessages } from './json-schema';
import { createTurns } from './turns';
import type { ChildCompletion, FromChild, LocalChildConfig } from './local-child';
import {
  LanguageModelError,
  type ChatMessage,
  type CompleteRequest,
  type CompleteResult,
  type LanguageModel,
} from './types';

export interface LocalModelOptions {
  modelPath: string;
  /** The model's name (the catalogue's), stored with outputs and named in errors. */
  modelName: string;
  /** Fetches the model when it is missing (the same provisioning as Whisper's model). */
  provisioner?: ModelProvisioner;
  /** Tokens of context (LLM_CONTEXT_TOKENS); default 16,384. */
  contextTokens?: number;
  /** Threads (LLM_THREADS); default every core. */
  threads?: number;
  gpu?: LocalChildConfig['gpu'];
  /** The child is stopped after this long without work; default 10 minutes. */
  idleMs?: number;
  /** No sign of life from the child for this long kills it; default 60 s. */
  watchdogMs?: number;
  logger?: Pick<Logger, 'debug' | 'info' | 'warn'>;
  /** Called with the pid of each child started (tests kill one). */
  onSpawn?: (pid: number) => void;
}

const DEFAULT_MAX_TOKENS = 1024;
const STDERR_TAIL = 4000;

/** How to start the child: from source with tsx's loader, from the bundle as llm-child.js. */
function childCommand(): { execArgv: string[]; script: string } {
  const self = fileURLToPath(import.meta.url);
  if (path.extname(self) !== '.ts')
    return { execArgv: ['--enable-source-maps'], script: path.join(SERVER_BUNDLE_DIR, 'llm-child.js') };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { execArgv: ['--import', tsx], script: path.join(path.dirname(self), 'local-child.ts') };
}

interface Running {
  id: number;
  onToken?: (text: string) => void;
  resolve(result: Extract<FromChild, { t: 'done' }>): void;
  reject(err: LanguageModelError): void;
}

interface Child {
  process: ChildProcess;
  loaded: Promise<void>;
  running: Running | null;
  stderr: string;
}

export function createLocalModel(options: LocalModelOptions): LanguageModel {
  const contextTokens = options.contextTokens ?? 16_384;
  const idleMs = options.idleMs ?? 10 * 60_000;
  const watchdogMs = options.watchdogMs ?? 60_000;
  let child: Child | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  let closed = false;
  /** One completion at a time: the child has one sequence (interactive ones first). */
  const turns = createTurns();

  function start(): Child {
    const cmd = childCommand();
    const config: LocalChildConfig = {
      modelPath: options.modelPath,
      contextSize: contextTokens,
      threads: options.threads ?? os.availableParallelism(),
      gpu: options.gpu ?? false,
    };
    const proc = spawn(process.execPath, [...cmd.execArgv, cmd.script, JSON.stringify(config)], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      windowsHide: true,
    });
    const made: Child = { process: proc, running: null, stderr: '', loaded: Promise.resolve() };
    let watchdog: NodeJS.Timeout | undefined;
    const arm = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(() => {
        options.logger?.warn(
          { pid: proc.pid, watchdogMs },
          'language model child silent too long: killing it',
        );
        fail(
          new LanguageModelError(
            'crashed',
            `the local language model gave no sign of life for ${watchdogMs} ms`,
            true,
          ),
        );
      }, watchdogMs);
    };
    let failure: LanguageModelError | null = null;
    const fail = (err: LanguageModelError) => {
      failure ??= err;
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
    };
    made.loaded = new Promise<void>((resolve, reject) => {
      proc.on('spawn', () => {
        if (proc.pid !== undefined) options.onSpawn?.(proc.pid);
      });
      proc.on('error', (err) =>
        fail(new LanguageModelError('crashed', `cannot start the language model: ${err.message}`, true)),
      );
      proc.stderr?.setEncoding('utf8');
      proc.stderr?.on('data', (s: string) => {
        made.stderr = (made.stderr + s).slice(-STDERR_TAIL);
      });
      proc.on('message', (msg: FromChild) => {
        arm();
        switch (msg.t) {
          case 'loaded':
            options.logger?.debug(
              { pid: proc.pid, ms: msg.ms, contextSize: msg.contextSize },
              'language model loaded',
            );
            resolve();
            break;
          case 'token':
            if (made.running?.id === msg.id) made.running.onToken?.(msg.text);
            break;
          case 'done':
            if (made.running?.id === msg.id) made.running.resolve(msg);
            break;
          case 'error': {
            const err =
              msg.code === 'model_invalid'
                ? new LanguageModelError(
                    'model_invalid',
                    `the language model ${options.modelName} cannot be loaded: ${msg.message}`,
                  )
                : msg.code === 'context_overflow'
                  ? new LanguageModelError('context_overflow', msg.message)
                  : new LanguageModelError('crashed', msg.message, true);
            if (msg.id === null) {
              failure = err;
              reject(err);
            } else if (made.running?.id === msg.id) made.running.reject(err);
            break;
          }
          case 'alive':
            break;
        }
      });
      proc.on('close', (code, signal) => {
        clearTimeout(watchdog);
        if (child === made) child = null;
        const detail = made.stderr.trim().split('\n').slice(-3).join(' | ');
        const err =
          failure ??
          new LanguageModelError(
            'crashed',
            `the local language model ${signal ? `was killed by ${signal}` : `exited with code ${code}`}${detail ? `: ${detail}` : ''}`,
            true,
          );
        if (!failure)
          options.logger?.warn(
            { code, signal, stderr: made.stderr.slice(-1000) },
            'language model child died',
          );
        reject(err);
        made.running?.reject(err);
      });
      arm();
    });
    // A load failure is reported to whoever waits for it; nobody may leave it unhandled.
    made.loaded.catch(() => undefined);
    return made;
  }

  function stopChild() {
    clearTimeout(idleTimer);
    const c = child;
    child = null;
    if (c && c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
  }

  /** One completion in the child; a cancel kills it (the next completion starts a new one). */
  async function generate(
    req: CompleteRequest,
    messages: ChatMessage[],
    forward: boolean,
  ): Promise<Extract<FromChild, { t: 'done' }>> {
    if (req.signal?.aborted) throw canceled();
    clearTimeout(idleTimer);
    child ??= start();
    const c = child;
    const onAbort = () => {
      if (child === c) stopChild();
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await c.loaded;
      if (req.signal?.aborted) throw canceled();
      const id = nextId++;
      const job: ChildCompletion = {
        t: 'complete',
        id,
        messages,
        grammar: req.schema ? compactGrammar(req.schema) : undefined,
        maxTokens: req.maxTokens ?? DEFAULT_MAX_TOKENS,
        temperature: req.temperature ?? 0.2,
      };
      return await new Promise<Extract<FromChild, { t: 'done' }>>((resolve, reject) => {
        c.running = {
          id,
          onToken: forward ? req.onToken : undefined,
          resolve,
          reject: (err) => reject(req.signal?.aborted ? canceled() : err),
        };
        c.process.send(job);
      });
    } catch (err) {
      if (req.signal?.aborted) throw canceled();
      throw err;
    } finally {
      c.running = null;
      req.signal?.removeEventListener('abort', onAbort);
      if (!closed && child === c) {
        clearTimeout(idleTimer);
        idleTimer = setTimeout(stopChild, idleMs);
        idleTimer.unref();
      }
    }
  }

  async function complete(req: CompleteRequest): Promise<CompleteResult> {
    if (closed) throw new LanguageModelError('canceled', 'the language model is closed');
    if (options.provisioner) {
      try {
        await options.provisioner.ready({ signal: req.signal, onProgress: req.onPreparing });
      } catch (err) {
        throw fromEngineError(err, options.modelName);
      }
    }
    try {
      const st = await stat(options.modelPath);
      if (!st.isFile()) throw new Error('not a file');
    } catch {
      throw new LanguageModelError(
        'model_missing',
        `the language model is not at ${options.modelPath}. Download it with: npm run model:download -- ${options.modelName}`,
      );
    }
    // Completions take turns, a person's question first; a canceled one leaves the line at once.
    const end = await turns.take({ interactive: req.interactive, signal: req.signal }).catch(() => {
      throw canceled();
    });
    try {
      return await run(req);
    } finally {
      end();
    }
  }

  async function run(req: CompleteRequest): Promise<CompleteResult> {
    const first = await generate(req, req.messages, true);
    const usage = { promptTokens: first.promptTokens, completionTokens: first.completionTokens };
    if (!req.schema) return { text: first.text, stopReason: first.stopReason, usage };
    if (first.stopReason === 'length')
      throw new LanguageModelError(
        'invalid_output',
        `the answer did not fit in ${req.maxTokens ?? DEFAULT_MAX_TOKENS} tokens`,
      );
    const checked = checkJson(req.schema, first.text);
    if (checked.ok) return { text: first.text, json: checked.value, stopReason: 'stop', usage };
    const second = await generate(req, repairMessages(req.messages, first.text, checked.problems), false);
    usage.promptTokens += second.promptTokens;
    usage.completionTokens += second.completionTokens;
    const again = checkJson(req.schema, second.text);
    if (again.ok) return { text: second.text, json: again.value, stopReason: 'stop', usage };
    throw new LanguageModelError(
      'invalid_output',
      `${options.modelName} did not answer in the required shape, even when asked again (${again.problems.join('; ')})`,
    );
  }

  return {
    kind: 'local',
    model: options.modelName,
    contextTokens,
    complete,
    async ready(opts) {
      if (options.provisioner)
        await options.provisioner.ready(opts).catch((err: unknown) => {
          throw fromEngineError(err, options.modelName);
        });
    },
    start() {
      options.provisioner?.start();
    },
    async close() {
      closed = true;
      options.provisioner?.close();
      const c = child;
      stopChild();
      if (c && c.process.exitCode === null && c.process.signalCode === null)
        await new Promise<void>((resolve) => {
          c.process.once('close', () => resolve());
          setTimeout(resolve, 500).unref();
        });
    },
  };
}

const canceled = () => new LanguageModelError('canceled', 'the completion was canceled');

/** The provisioner speaks the speech engine's errors; say the same in the language model's. */
function fromEngineError(err: unknown, modelName: string): Error {
  const e = err as { code?: string; message?: string; transient?: boolean };
  if (e?.code === 'canceled') return canceled();
  if (e?.code === 'model_missing' || e?.code === 'model_unavailable')
    return new LanguageModelError(
      e.code,
      (e.message ?? '').replace(/transcription/g, 'completion'),
      e.transient ?? false,
    );
  return err instanceof Error ? err : new Error(`${modelName}: ${String(err)}`);
}
