// Local language model figures on this machine, with random-weight GGUF models of the real
// dimensions (scripts/make-llm-model.mjs; speed does not depend on the weights' values):
//
//   1. prompt and generated tokens per second, node-llama-cpp called bare, per model, by the
//      clock and by CPU time (tokens per CPU-second × threads: what the cores would do unloaded —
//      on a shared machine the clock mostly measures the others);
//   2. our adapter (child process, IPC, grammar, validation) against bare node-llama-cpp on the
//      same prompt and the same number of generated tokens, side by side (ratio; target ≤ 1.1×),
//      by the clock and by CPU time (the child's, from /proc);
//   3. the time to a summary and chapters of a one-hour transcript (≈ 10,000 tokens): estimated
//      from 1. (the transcript evaluated once, the chapters reusing the prefix; --answer tokens
//      written for the two), and with --full run through the insights module itself (its
//      prompts, schemas and grammar) at the production context of 16,384 tokens (target ≤ 2 min).
//
//   npm run bench:llm [-- --models qwen2.5-0.5b,qwen2.5-1.5b,qwen2.5-3b] [--threads N]
//                     [--prompt 512] [--gen 16] [--answer 1000] [--transcript 10000] [--full]
//                     [--dir /tmp/clipscribe-llm-bench]
//
// The models are written once into --dir (1–2 GB each). Figures depend on the machine's load:
// compare the models of one run, not runs of different days.
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { getLlama, LlamaChat } from 'node-llama-cpp';
import type { PRESETS } from '../scripts/make-llm-model.mjs';
import { ensureBenchModel } from './lib/llm-model';
import { createLocalModel } from '../server/modules/language-model/local';
import { summaryCitations, type Chapter, type Summary } from '../common/insights';
import { generateChapters, generateSummary } from '../server/modules/insights/generate';

const args = process.argv.slice(2);
const flag = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] ? args[i + 1]! : fallback;
};
const models = flag('models', 'qwen2.5-0.5b,qwen2.5-1.5b,qwen2.5-3b').split(',') as (keyof typeof PRESETS)[];
const threads = Number(flag('threads', String(os.availableParallelism())));
const promptTokens = Number(flag('prompt', '512'));
const transcriptTokens = Number(flag('transcript', '10000'));
const genTokens = Number(flag('gen', '16'));
/** Tokens a summary and chapters write together (about 600 + 400 for an hour's meeting). */
const answerTokens = Number(flag('answer', '1000'));
const full = args.includes('--full');

/** CPU milliseconds of this process (node-llama-cpp's threads included). */
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
/** CPU milliseconds of another process (the adapter's child), from /proc. */
const TICK_MS = 10;
function pidCpu(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}
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

const ensureModel = (name: keyof typeof PRESETS) => ensureBenchModel(dir, name);

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
      contextSize: 16_384, // as the adapter's
      threads,
    });
    const sequence = context.getSequence();
    const prompt = transcriptText(promptTokens, (s) => model.tokenize(s).length);
    const tokens = model.tokenize(prompt);
    t = Date.now();
    const c = ownCpu();
    let first = 0;
    let firstCpu = 0;
    let n = 0;
    for await (const _ of sequence.evaluate(tokens, { temperature: 0 })) {
      if (n === 0) {
        first = Date.now() - t;
        firstCpu = ownCpu() - c;
      }
      if (++n > genTokens) break;
    }
    const genMs = Date.now() - t - first;
    const genCpu = ownCpu() - c - firstCpu;
    // Per CPU-second × threads: the rate the cores give when nothing else runs.
    const promptRate = (tokens.length / firstCpu) * 1000 * threads;
    const genRate = (genTokens / genCpu) * 1000 * threads;
    console.log(`  load ${loadMs} ms`);
    console.log(
      `  prompt    ${fmt(promptRate)} tokens/s by CPU time, ${fmt((tokens.length / first) * 1000)} by the clock ` +
        `(${tokens.length} tokens: ${fmt(firstCpu / 1000)} CPU-s, ${first} ms)`,
    );
    console.log(
      `  generated ${fmt(genRate)} tokens/s by CPU time, ${fmt((genTokens / genMs) * 1000)} by the clock ` +
        `(${genTokens} tokens: ${fmt(genCpu / 1000)} CPU-s, ${genMs} ms)`,
    );
    const estimate = transcriptTokens / promptRate + 150 / promptRate + answerTokens / genRate;
    console.log(
      `  one-hour transcript, estimated: ${transcriptTokens} prompt tokens + 150 for the chapters' ` +
        `instructions (prefix reused) + ${answerTokens} written = ${fmt(estimate)} s ` +
        `(${fmt(transcriptTokens / promptRate)} s reading, ${fmt(answerTokens / genRate)} s writing; target ≤ 120 s)`,
    );
    await sequence.clearHistory();

    // 2. Our adapter vs bare, same messages, same grammar, same generated length, warm on both sides.
    const instruction = 'You summarise transcripts. Cite segment numbers.';
    const bareChat = new LlamaChat({ contextSequence: sequence });
    const grammar = await llama.createGrammarForJsonSchema({ type: 'string', maxLength: 100_000 } as never);
    const bare = async () => {
      await sequence.clearHistory();
      const s = Date.now();
      const cpu = ownCpu();
      await bareChat.generateResponse(
        [
          { type: 'system', text: instruction },
          { type: 'user', text: prompt },
          { type: 'model', response: [] },
        ],
        { grammar, maxTokens: genTokens, temperature: 0 },
      );
      return { ms: Date.now() - s, cpu: ownCpu() - cpu };
    };
    let childPid = 0;
    const local = createLocalModel({
      modelPath,
      modelName: name,
      threads,
      contextTokens: 16_384, // the production default (LLM_CONTEXT_TOKENS)
      watchdogMs: 30 * 60_000, // a loaded machine may starve the child's heartbeat
      onSpawn: (pid) => (childPid = pid),
    });
    // The child keeps its prefix between calls; a different first message each time defeats that,
    // as clearHistory() does for the bare side.
    let round = 0;
    const ours = async () => {
      const s = Date.now();
      // The child's CPU and this process's (IPC, validation) together.
      const cpu = (childPid ? pidCpu(childPid) : 0) + ownCpu();
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
      return { ms: Date.now() - s, cpu: pidCpu(childPid) + ownCpu() - cpu };
    };
    await ours(); // load the child's model
    const bareRuns: { ms: number; cpu: number }[] = [];
    const oursRuns: { ms: number; cpu: number }[] = [];
    for (let i = 0; i < 3; i++) {
      bareRuns.push(await bare());
      oursRuns.push(await ours());
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const m = (runs: { ms: number; cpu: number }[], k: 'ms' | 'cpu') => median(runs.map((r) => r[k]));
    console.log(
      `  adapter vs bare (${tokens.length}-token prompt, ${genTokens} tokens out, alternating, median of 3): ` +
        `CPU ${fmt(m(oursRuns, 'cpu') / 1000)} s vs ${fmt(m(bareRuns, 'cpu') / 1000)} s = ` +
        `${fmt(m(oursRuns, 'cpu') / m(bareRuns, 'cpu'), 2)}×; clock ${m(oursRuns, 'ms')} ms vs ` +
        `${m(bareRuns, 'ms')} ms = ${fmt(m(oursRuns, 'ms') / m(bareRuns, 'ms'), 2)}×`,
    );
    const transcript = transcriptText(transcriptTokens, (s) => model.tokenize(s).length);
    await context.dispose();
    await model.dispose();
    if (!full) {
      await local.close?.();
      continue;
    }

    // 3. Summary and chapters of a one-hour transcript through the features' own code (the
    //    insights module: prompts, schemas, grammar, citations), the chapters reusing the prefix.
    const segments = transcript.split('\n').map((line, i) => ({
      start: i * 6,
      end: i * 6 + 6,
      text: line.replace(/^\[\d+\] \d+:\d+ /, ''),
    }));
    const durationSec = segments.at(-1)!.end;
    let summaryStages = '';
    t = Date.now();
    const summary = await generateSummary({
      model: local,
      segments,
      durationSec,
      language: 'English',
      onStage: (stage) => {
        if (!summaryStages.endsWith(stage)) summaryStages += summaryStages ? `→${stage}` : stage;
      },
    }).catch((e: Error) => e);
    const summaryMs = Date.now() - t;
    const chapters = await generateChapters({
      model: local,
      segments,
      durationSec,
      language: 'English',
    }).catch((e: Error) => e);
    const totalMs = Date.now() - t;
    const outcome = (r: unknown, what: (v: never) => string) =>
      r instanceof Error ? `failed: ${r.message.slice(0, 80)}` : what(r as never);
    console.log(
      `  one-hour transcript (${segments.length} segments, ${fmt(durationSec / 60, 0)} min, ` +
        `≈${transcriptTokens} tokens): summary ${fmt(summaryMs / 1000)} s ` +
        `(${outcome(summary, (s: Summary) => `${summaryCitations(s).length} citations, ${summaryStages}`)}), ` +
        `then chapters ${fmt((totalMs - summaryMs) / 1000)} s ` +
        `(${outcome(chapters, (c: Chapter[]) => `${c.length} chapters`)}): ${fmt(totalMs / 1000)} s in all`,
    );
    await local.close?.();
  }
}

await main();
