// `npm run bench:llm-prompt` (issue #27; not a test, prints figures): what reading a one-hour
// transcript (≈ 10,000 tokens) costs the local model, before and after the compact line format,
// side by side in one run, with a random-weight GGUF of the default model's real dimensions
// (scripts/make-llm-model.mjs; reading speed does not depend on the weights' values):
//
//   1. the one-hour transcript (--transcript tokens in the old format) with a time on every line
//      (`[n] mm:ss text`, before) and on the first line of each minute (`[n] text`, after): the
//      summary prompt's tokens (the model's own tokenizer), our estimate against the prompt budget,
//      and whether it is read in one completion or in sections and merged, before (estimate ≤
//      budget) and after (tried whole up to 1.5× the budget, generate.ts WHOLE_MARGIN);
//   2. the time to evaluate the summary prompt cold (to the first generated token) in each format,
//      by the clock and by CPU time, on a shorter transcript (--read tokens: a loaded machine reads
//      40 tokens a second or less; evaluation time follows the tokens);
//   3. the chapters' prompt right after the summary's: the transcript prefix is reused, so only
//      the instructions are evaluated (the time to its first token, against the cold one).
//
//   npm run bench:llm-prompt [-- --model qwen2.5-1.5b] [--transcript 10000] [--read 2000]
//                            [--threads N] [--dir /tmp/clipscribe-llm-bench]
import os from 'node:os';
import path from 'node:path';
import { getLlama, LlamaChat, type ChatHistoryItem } from 'node-llama-cpp';
import type { PRESETS } from '../scripts/make-llm-model.mjs';
import { ensureBenchModel } from './lib/llm-model';
import type { Segment } from '../common/segments';
import { chapterRange, outputSize } from '../server/modules/insights/model-output';
import { inputBudget } from '../server/modules/insights/generate';
import { chaptersTask, summaryTask, taskMessages } from '../server/modules/insights/prompts';
import { transcriptLines } from '../server/modules/insights/transcript-lines';
import type { LanguageModel } from '../server/modules/language-model/types';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const modelName = flag('model', 'qwen2.5-1.5b') as keyof typeof PRESETS;
const transcriptTokens = Number(flag('transcript', '10000'));
const readTokens = Number(flag('read', '2000'));
const threads = Number(flag('threads', String(os.availableParallelism())));
const dir = flag('dir', path.join(os.tmpdir(), 'clipscribe-llm-bench'));
const CONTEXT = 16_384; // the production default (LLM_CONTEXT_TOKENS)

const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const fmt = (n: number, d = 1) => n.toFixed(d);

const SAID = [
  'So the plan for this quarter is simple, we ship the new onboarding flow by the end of March.',
  'Maria will own the design review, and Tom said he would send the budget by Friday.',
  'Does anyone have questions about the timeline before we move on to the migration?',
  'The biggest risk is the migration of the old accounts, because we do not know how many are active.',
  'Next week we will decide whether to change the carrier, after we check with the warehouse.',
  'Thank you everyone, that is all for today, see you next time.',
];

async function main() {
  const file = await ensureBenchModel(dir, modelName);
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    logLevel: 'error' as never,
    progressLogs: false,
  });
  const model = await llama.loadModel({ modelPath: file });
  const context = await model.createContext({ contextSize: CONTEXT, threads });
  const sequence = context.getSequence();
  const chat = new LlamaChat({ contextSequence: sequence });
  console.log(
    `prompt reading bench: ${modelName} (random weights, real dimensions), ${os.cpus().length} cores ` +
      `(${os.cpus()[0]?.model}), threads ${threads}, load ${os.loadavg()[0]!.toFixed(1)}`,
  );

  /** A meeting of 6-second segments, as long as about `tokens` tokens in the old format. */
  const meeting = (tokens: number): Segment[] => {
    const out: Segment[] = [];
    for (let used = 0; used < tokens;) {
      const i = out.length;
      out.push({ start: i * 6, end: i * 6 + 6, text: SAID[i % SAID.length]! });
      used += model.tokenize(transcriptLines(out.slice(-1), { clock: 'every' })[0]!.text).length + 1;
    }
    return out;
  };
  const size = outputSize(CONTEXT);
  const budget = inputBudget({ contextTokens: CONTEXT } as LanguageModel, size.answerTokens);
  const prompt = (segments: Segment[], clock: 'every' | 'minute', task: string): ChatHistoryItem[] => {
    const body = transcriptLines(segments, { clock })
      .map((l) => l.text)
      .join('\n');
    const [system, user] = taskMessages({ tag: 'transcript', body }, task);
    return [
      { type: 'system', text: system!.content },
      { type: 'user', text: user!.content },
      { type: 'model', response: [] },
    ];
  };
  const tokensOf = (history: ChatHistoryItem[]) =>
    history.reduce((n, h) => n + (h.type === 'model' ? 0 : model.tokenize(h.text as string).length), 0);
  /** Evaluates a prompt to its first generated token: clock ms and CPU ms. */
  const read = async (history: ChatHistoryItem[], cold: boolean) => {
    if (cold) await sequence.clearHistory();
    const t = Date.now();
    const c = ownCpu();
    await chat.generateResponse(history, { maxTokens: 1, temperature: 0 });
    return { ms: Date.now() - t, cpu: ownCpu() - c };
  };
  const summary = summaryTask('English');
  const label = (clock: 'every' | 'minute') =>
    clock === 'every' ? 'time on every line (before)' : 'time once a minute (after)';

  // 1. The one-hour transcript: tokens and how it is read.
  const hour = meeting(transcriptTokens);
  const minutes = hour.at(-1)!.end / 60;
  console.log(
    `  one-hour transcript: ${hour.length} segments, ${fmt(minutes, 0)} min, budget ${budget} estimated tokens`,
  );
  const counted: Record<string, number> = {};
  for (const clock of ['every', 'minute'] as const) {
    const estimate = transcriptLines(hour, { clock }).reduce((n, l) => n + l.tokens, 0);
    const tokens = tokensOf(prompt(hour, clock, summary));
    counted[clock] = tokens;
    const fits = tokens + size.answerTokens <= CONTEXT;
    const whole = (margin: number) => estimate <= budget * margin;
    const how = (margin: number) =>
      whole(1) || (whole(margin) && fits) ? 'one completion' : 'sections, then a merge';
    console.log(
      `  ${label(clock)}: summary prompt ${tokens} tokens (estimate ${estimate}); read before: ${how(1)}, after: ${how(1.5)}`,
    );
  }
  console.log(`  prompt tokens after / before: ${fmt(counted.minute! / counted.every!, 2)}×`);

  // 2. Reading time, cold, each format, on a shorter transcript.
  const part = meeting(readTokens);
  const timed: Record<string, { tokens: number; ms: number; cpu: number }> = {};
  for (const clock of ['every', 'minute'] as const) {
    const history = prompt(part, clock, summary);
    const tokens = tokensOf(history);
    const r = await read(history, true);
    timed[clock] = { tokens, ...r };
    console.log(
      `  ${label(clock)}, ${part.length} segments: ${tokens} tokens read cold in ${fmt(r.ms / 1000)} s ` +
        `(${fmt(r.cpu / 1000)} CPU-s, ${fmt((tokens / r.cpu) * 1000 * threads)} tokens/s by CPU)`,
    );
  }
  const b = timed.every!;
  const a = timed.minute!;
  console.log(`  reading after / before: clock ${fmt(a.ms / b.ms, 2)}×, CPU ${fmt(a.cpu / b.cpu, 2)}×`);

  // 3. The chapters right after the summary (the state is the 'minute' summary's).
  const chapters = chaptersTask('English', chapterRange(part.at(-1)!.end, part.length));
  const warm = await read(prompt(part, 'minute', chapters), false);
  console.log(
    `  chapters' prompt right after the summary's (transcript prefix reused): first token in ${fmt(warm.ms / 1000)} s ` +
      `(${fmt(warm.cpu / 1000)} CPU-s) against ${fmt(a.ms / 1000)} s cold = ${fmt(warm.ms / a.ms, 3)}×`,
  );
  await context.dispose();
  await model.dispose();
}

await main();
