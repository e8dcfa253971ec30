// Local language model figures on this machine, with random-weight GGUF models of the real
// dimensions (scripts/make-llm-model.mjs; speed does not depend on the weights' values):
//
//   1. prompt and generated tokens per second, node-llama-cpp called bare, per model;
//   2. our adapter (child process, IPC, grammar, validation) against bare node-llama-cpp on the
//      same prompt and the same number of generated tokens, side by side (ratio; target ≤ 1.1×);
//   3. the time to a summary and chapters of a one-hour transcript (≈ 10,000 tokens): two
//      structured completions on one transcript, the second reusing the evaluated prefix
//      (target ≤ 2 min).
//
//   npm run bench:llm [-- --models qwen2.5-0.5b,qwen2.5-1.5b,qwen2.5-3b] [--threads N]
//                     [--prompt 1000] [--transcript 10000] [--dir /tmp/clipscribe-llm-bench]
//
// The models are written once into --dir (1–2 GB each). Figures depend on the machine's load:
// compare the models of one run, not runs of different days.
import { mkdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getLlama, LlamaChat } from 'node-llama-cpp';
import type { PRESETS } from '../scripts/make-llm-model.mjs';
import { makeLlmModel } from '../scripts/make-llm-model.mjs';
import { createLocalModel } from '../server/modules/language-model/local';
import type { JsonSchema } from '../server/modules/language-model/json-schema';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const models = flag('models', 'qwen2.5-0.5b,qwen2.5-1.5b,qwen2.5-3b').split(',') as (keyof typeof PRESETS)[];
const threads = Number(flag('threads', String(os.availableParallelism())));
const promptTokens = Number(flag('prompt', '1000'));
const transcriptTokens = Number(flag('transcript', '10000'));
const genTokens = Number(flag('gen', '48'));
const dir = flag('dir', path.join(os.tmpdir(), 'clipscribe-llm-bench'));

/** Meeting-like English, as a transcript of numbered segments (the prompt form the features use). */
function transcriptText(approxTokens: number, countTokens: (s: string) => number): string {
  const lines = [
    'So the plan for this quarter is simple, we ship the new onboarding flow by the end of March.',
    'Maria will own the design review, and Tom said he would send the budget by Friday.',
    'Does anyone have questions about the timeline before we move on to the migration?',
    'The biggest risk is the migration of the old accounts, because we do not know how many are active.',
    'Next week we will decide whether to change the carrier, after we check with the warehouse.',
    'Thank you everyone, that is all for today, see you next time.',
  ];
  const out: string[] = [];
  let tokens = 0;
  for (let i = 0; tokens < approxTokens; i++) {
    const mm = String(Math.floor((i * 6) / 60)).padStart(2, '0');
    const ss = String((i * 6) % 60).padStart(2, '0');
    const line = `[${i}] ${mm}:${ss} ${lines[i % lines.length]}`;
    out.push(line);
    tokens += countTokens(line) + 1;
  }
  return out.join('\n');
}

const summarySchema: JsonSchema = {
  type: 'object',
  properties: {
    bottomLine: { type: 'string', maxLength: 300 },
    keyPoints: {
      type: 'array',
      maxItems: 6,
      items: {
        type: 'object',
        properties: {
          text: { type: 'string', maxLength: 200 },
          segments: { type: 'array', maxItems: 3, items: { type: 'integer' } },
        },
      },
    },
  },
};
const chaptersSchema: JsonSchema = {
  type: 'object',
  properties: {
    chapters: {
      type: 'array',
      maxItems: 12,
      items: {
        type: 'object',
        properties: {
          start: { type: 'integer' },
          title: { type: 'string', maxLength: 60 },
          summary: { type: 'string', maxLength: 120 },
        },
      },
    },
  },
};

async function ensureModel(name: keyof typeof PRESETS): Promise<string> {
  const file = path.join(dir, `${name}.gguf`);
  try {
    await stat(file);
  } catch {
    await mkdir(dir, { recursive: true });
    process.stderr.write(`writing ${file} …\n`);
    await makeLlmModel(file, { preset: name });
  }
  return file;
}

const fmt = (n: number, d = 1) => n.toFixed(d);

async function main() {
  console.log(
    `language model bench: ${os.cpus().length} cores (${os.cpus()[0]?.model}), threads ${threads}, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  const llama = await getLlama({
    gpu: false,
    build: 'never',
    logLevel: 'error' as never,
    progressLogs: false,
  });
  for (const name of models) {
    const modelPath = await ensureModel(name);
    const size = (await stat(modelPath)).size;
    console.log(`\n${name} (random weights, real dimensions, ${fmt(size / 1e6, 0)} MB)`);

    // 1. Bare node-llama-cpp: prompt tokens/s and generated tokens/s.
    let t = Date.now();
    const model = await llama.loadModel({ modelPath });
    const loadMs = Date.now() - t;
    const context = await model.createContext({
      contextSize: Math.max(2048, transcriptTokens + 2048),
      threads,
    });
    const sequence = context.getSequence();
    const prompt = transcriptText(promptTokens, (s) => model.tokenize(s).length);
    const tokens = model.tokenize(prompt);
    t = Date.now();
    let first = 0;
    let n = 0;
    for await (const _ of sequence.evaluate(tokens, { temperature: 0 })) {
      if (n === 0) first = Date.now() - t;
      if (++n > genTokens) break;
    }
    const genMs = Date.now() - t - first;
    console.log(`  load ${loadMs} ms`);
    console.log(
      `  prompt    ${fmt((tokens.length / first) * 1000)} tokens/s (${tokens.length} tokens in ${first} ms)`,
    );
    console.log(
      `  generated ${fmt((genTokens / genMs) * 1000)} tokens/s (${genTokens} tokens in ${genMs} ms)`,
    );
    await sequence.clearHistory();

    // 2. Our adapter vs bare, same messages, same grammar, same generated length, warm on both sides.
    const instruction = 'You summarise transcripts. Cite segment numbers.';
    const bareChat = new LlamaChat({ contextSequence: sequence });
    const grammar = await llama.createGrammarForJsonSchema({ type: 'string', maxLength: 100_000 } as never);
    const bare = async () => {
      await sequence.clearHistory();
      const s = Date.now();
      await bareChat.generateResponse(
        [
          { type: 'system', text: instruction },
          { type: 'user', text: prompt },
          { type: 'model', response: [] },
        ],
        { grammar, maxTokens: genTokens, temperature: 0 },
      );
      return Date.now() - s;
    };
    const local = createLocalModel({
      modelPath,
      modelName: name,
      threads,
      contextTokens: context.contextSize,
    });
    // The child keeps its prefix between calls; a different first message each time defeats that,
    // as clearHistory() does for the bare side.
    let round = 0;
    const ours = async () => {
      const s = Date.now();
      await local
        .complete({
          messages: [
            { role: 'system', content: `${instruction} (${round++})` },
            { role: 'user', content: prompt },
          ],
          schema: { type: 'string', maxLength: 100_000 },
          maxTokens: genTokens,
          temperature: 0,
        })
        .catch((err: Error) => {
          // A random-weight model may run into maxTokens inside the string: the time still counts.
          if (!/did not fit|required shape/.test(err.message)) throw err;
        });
      return Date.now() - s;
    };
    await ours(); // load the child's model
    const bareMs: number[] = [];
    const oursMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      bareMs.push(await bare());
      oursMs.push(await ours());
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(
      `  adapter vs bare (${tokens.length}-token prompt, ${genTokens} tokens out, median of 3): ` +
        `${median(oursMs)} ms vs ${median(bareMs)} ms = ${fmt(median(oursMs) / median(bareMs), 2)}×`,
    );
    const transcript = transcriptText(transcriptTokens, (s) => model.tokenize(s).length);
    await context.dispose();
    await model.dispose();

    // 3. Summary and chapters of a one-hour transcript through the adapter (prefix reused).
    const system = { role: 'system' as const, content: `Transcript:\n${transcript}` };
    t = Date.now();
    const summary = await local
      .complete({
        messages: [
          system,
          { role: 'user', content: 'Summarise it: a bottom line and key points with segment numbers.' },
        ],
        schema: summarySchema,
        maxTokens: 1500,
        temperature: 0.2,
      })
      .catch((e: Error) => e);
    const summaryMs = Date.now() - t;
    const chapters = await local
      .complete({
        messages: [system, { role: 'user', content: 'Split it into chapters starting at segment numbers.' }],
        schema: chaptersSchema,
        maxTokens: 1500,
        temperature: 0.2,
      })
      .catch((e: Error) => e);
    const totalMs = Date.now() - t;
    const usage = (r: unknown) =>
      r instanceof Error
        ? `failed: ${r.message.slice(0, 80)}`
        : `${(r as { usage: { promptTokens: number } }).usage.promptTokens} prompt tokens`;
    console.log(
      `  one-hour transcript: summary ${fmt(summaryMs / 1000)} s (${usage(summary)}), then chapters ` +
        `${fmt((totalMs - summaryMs) / 1000)} s (${usage(chapters)}): ${fmt(totalMs / 1000)} s in all`,
    );
    await local.close?.();
  }
}

await main();
