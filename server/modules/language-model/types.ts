// The language-model contract. Every adapter (a local GGUF model in a child process, or any
// OpenAI-compatible endpoint) takes the same chat messages and answers the same way, so the
// features built on it (summaries, chapters, answers, translations) never know which one runs.

import type { JsonSchema } from './json-schema';

export type { JsonSchema };

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompleteRequest {
  messages: ChatMessage[];
  /**
   * When given, the answer is one JSON value valid against it (the subset in json-schema.ts): the
   * local model is constrained by a grammar, an endpoint asked for json_schema output or JSON mode,
   * and either way the result is validated (one repair round when it is not).
   */
  schema?: JsonSchema;
  signal?: AbortSignal;
  /** Text as it is generated, piece by piece, in order (the JSON text itself when a schema is given). */
  onToken?: (text: string) => void;
  /** While the model is being prepared (the local model's first download): 0–100. */
  onPreparing?: (percent: number) => void;
  /** Upper bound on generated tokens (default: the adapter's, 1,024). */
  maxTokens?: number;
  /** Sampling temperature; default 0.2 (factual tasks). */
  temperature?: number;
  /**
   * A person waits for this one (a question): a model doing one completion at a time (local)
   * runs it before completions still waiting for their turn.
   */
  interactive?: boolean;
}

export interface CompleteResult {
  /** The whole generated text. */
  text: string;
  /** The parsed, schema-valid value, when a schema was given. */
  json?: unknown;
  /** 'length': the answer was cut at maxTokens (never the case for a returned json). */
  stopReason: 'stop' | 'length';
  usage: { promptTokens: number | null; completionTokens: number | null };
}

export interface LanguageModel {
  /** The adapter: 'local' or 'openai'. */
  readonly kind: 'local' | 'openai';
  /** What produced an output, stored with it (the GGUF model's name, or the endpoint's model). */
  readonly model: string;
  /** Tokens the model's context holds (prompt and answer together). */
  readonly contextTokens: number;
  complete(request: CompleteRequest): Promise<CompleteResult>;
  /** Resolves when the model can run; reports the model download meanwhile (local adapter). */
  ready?(opts: { signal?: AbortSignal; onProgress?: (percent: number) => void }): Promise<void>;
  /** Starts what the adapter prepares in the background (the model download). */
  start?(): void;
  close?(): Promise<void>;
}

/**
 * Why a completion failed. `transient` ones (a crashed child, a 429 or 5xx after the retries, a
 * timeout, an unreachable endpoint) may succeed later; the others will not without a change.
 */
export type LanguageModelErrorCode =
  | 'model_missing'
  | 'model_unavailable'
  | 'model_invalid'
  | 'unreachable'
  | 'timeout'
  | 'rate_limited'
  | 'remote_error'
  | 'remote_rejected'
  | 'invalid_output'
  | 'context_overflow'
  | 'crashed'
  | 'canceled';

export class LanguageModelError extends Error {
  constructor(
    readonly code: LanguageModelErrorCode,
    message: string,
    readonly transient = false,
  ) {
    super(message);
    this.name = 'LanguageModelError';
  }
}
