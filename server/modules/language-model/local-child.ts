// Child-process entry of the local language model: node-llama-cpp with one GGUF model, one
// context, one sequence, serving one completion at a time for the parent (local.ts). The parent
// kills it to cancel and restarts it after a crash, so the server never shares a process with
// llama.cpp's native code.
//
//   node [--import tsx] local-child.ts '<LocalChildConfig JSON>'
//
// Messages both ways go over Node's IPC channel. Consecutive completions that start with the same
// messages (a transcript, then one task after another) reuse the evaluated prefix: llama.cpp only
// evaluates what is new.
import { getLlama, LlamaChat, type ChatHistoryItem, type LlamaGrammar } from 'node-llama-cpp';

export interface LocalChildConfig {
  modelPath: string;
  /** Tokens in the context (prompt and answer). */
  contextSize: number;
  threads: number;
  /** false: the CPU build; 'cuda' / 'vulkan' on a GPU worker with that build installed. */
  gpu: false | 'cuda' | 'vulkan';
}

export interface ChildCompletion {
  t: 'complete';
  id: number;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  /** The answer's grammar in GBNF (gbnf.ts compactGrammar). */
  grammar?: string;
  maxTokens: number;
  temperature: number;
}

export type ToChild = ChildCompletion;

export type FromChild =
  | { t: 'loaded'; ms: number; contextSize: number }
  | { t: 'token'; id: number; text: string }
  | { t: 'alive' }
  | {
      t: 'done';
      id: number;
      text: string;
      stopReason: 'stop' | 'length';
      promptTokens: number;
      completionTokens: number;
    }
  | {
      t: 'error';
      id: number | null;
      code: 'model_invalid' | 'context_overflow' | 'crashed';
      message: string;
    };

/** Tokens the chat template adds around each message (role markers, newlines), with room to spare. */
const PER_MESSAGE_TOKENS = 8;
const HEARTBEAT_MS = 5000;

function send(msg: FromChild): void {
  process.send?.(msg);
}

async function main() {
  const config = JSON.parse(process.argv[2] ?? '{}') as LocalChildConfig;
  const started = Date.now();
  let chat: LlamaChat;
  let model: Awaited<ReturnType<Awaited<ReturnType<typeof getLlama>>['loadModel']>>;
  let llama: Awaited<ReturnType<typeof getLlama>>;
  try {
    llama = await getLlama({
      gpu: config.gpu,
      build: 'never',
      logLevel: 'error' as never,
      progressLogs: false,
    });
    model = await llama.loadModel({ modelPath: config.modelPath });
    const context = await model.createContext({
      contextSize: Math.min(config.contextSize, model.trainContextSize),
      threads: config.threads,
    });
    chat = new LlamaChat({ contextSequence: context.getSequence() });
    send({ t: 'loaded', ms: Date.now() - started, contextSize: context.contextSize });
  } catch (err) {
    send({ t: 'error', id: null, code: 'model_invalid', message: (err as Error).message });
    process.exit(1);
  }
  const contextSize = chat.sequence.context.contextSize;
  const grammars = new Map<string, LlamaGrammar>();
  // The event loop stays free while llama.cpp works on its own threads: the parent hears from us.
  setInterval(() => send({ t: 'alive' }), HEARTBEAT_MS).unref();

  let queue = Promise.resolve();
  process.on('message', (msg: ToChild) => {
    if (msg.t !== 'complete') return;
    queue = queue
      .then(() => run(msg))
      .catch((err: unknown) => {
        send({ t: 'error', id: msg.id, code: 'crashed', message: (err as Error).message });
      });
  });
  process.on('disconnect', () => process.exit(0));

  async function run(job: ChildCompletion) {
    const promptTokens = job.messages.reduce(
      (n, m) => n + model.tokenize(m.content).length + PER_MESSAGE_TOKENS,
      PER_MESSAGE_TOKENS,
    );
    // Never let llama.cpp shift the context: a prompt that does not fit is said so, not cut.
    if (promptTokens + job.maxTokens > contextSize) {
      send({
        t: 'error',
        id: job.id,
        code: 'context_overflow',
        message: `the prompt takes ${promptTokens} tokens and the answer up to ${job.maxTokens}: more than the ${contextSize}-token context`,
      });
      return;
    }
    let grammar: LlamaGrammar | undefined;
    if (job.grammar) {
      grammar = grammars.get(job.grammar);
      if (!grammar) {
        grammar = await llama.createGrammar({ grammar: job.grammar });
        grammars.set(job.grammar, grammar);
      }
    }
    const history: ChatHistoryItem[] = job.messages.map((m) =>
      m.role === 'system'
        ? { type: 'system', text: m.content }
        : m.role === 'user'
          ? { type: 'user', text: m.content }
          : { type: 'model', response: [m.content] },
    );
    history.push({ type: 'model', response: [] });
    let completionTokens = 0;
    const result = await chat.generateResponse(history, {
      grammar,
      maxTokens: job.maxTokens,
      temperature: job.temperature,
      onToken: (tokens) => {
        completionTokens += tokens.length;
      },
      onTextChunk: (text) => send({ t: 'token', id: job.id, text }),
    });
    send({
      t: 'done',
      id: job.id,
      text: result.response,
      stopReason: result.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
      promptTokens,
      completionTokens,
    });
  }
}

void main();
