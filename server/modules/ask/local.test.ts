// An answer through the `local` adapter: real node-llama-cpp in its own process, on the tiny
// random-weight GGUF model the project writes itself. The words are noise; the structure is not:
// the grammar makes the answer parse, and every citation left points at a segment it was given.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLlmModel } from '../../../scripts/make-llm-model.mjs';
import { answerPieces } from '../../../common/ask';
import type { Segment } from '../../../common/segments';
import { newTranscript } from '../../test/factories';
import { testApp } from '../../test/harness';
import { signedInUser } from '../../test/users';
import { createLocalModel } from '../language-model/local';
import type { LanguageModel } from '../language-model/types';
import { answerQuestion } from './run';

let dir: string;
let model: LanguageModel;
let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ask-local-'));
  const modelPath = path.join(dir, 'tiny.gguf');
  await makeLlmModel(modelPath, { preset: 'test' });
  // A small context: the transcript does not fit, so retrieval picks what the prompt holds.
  model = createLocalModel({ modelPath, modelName: 'test', threads: 1, contextTokens: 4096 });
  h = await testApp();
});
afterAll(async () => {
  await model?.close?.();
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('answers on the local model', { timeout: 240_000 }, () => {
  it('gives a grammar-constrained answer that parses, citing only segments it was given', async () => {
    const segments: Segment[] = Array.from({ length: 400 }, (_, i) => ({
      start: i * 9,
      end: i * 9 + 8,
      text:
        i === 250
          ? 'The warehouse in Rotterdam closes at the end of June.'
          : `Segment ${i}: the team went through the budget, the hiring plan and the launch date.`,
    }));
    const user = await signedInUser(h.db);
    const t = await newTranscript(h.db, user.user.id, { status: 'done', segments });
    const tokens: string[] = [];
    // The same model, recording the prompt it was given.
    let prompt = '';
    const recording: LanguageModel = {
      kind: model.kind,
      model: model.model,
      contextTokens: model.contextTokens,
      complete: (req) => {
        prompt = req.messages.at(-1)!.content;
        return model.complete(req);
      },
    };
    const answer = await answerQuestion({
      db: h.db,
      model: recording,
      docs: [{ id: t.id, name: 'Ops', segments }],
      folder: false,
      turns: [{ role: 'user', content: 'Which warehouse?' }],
      question: 'When does the Rotterdam warehouse close?',
      temperature: 0,
      onToken: (text) => tokens.push(text),
    });
    expect(tokens.length).toBeGreaterThan(0);
    // The generated text is the JSON the grammar allowed.
    const parsed = JSON.parse(tokens.join('')) as { answer: { text: string; segments: number[] }[] };
    expect(parsed.answer.length).toBeGreaterThanOrEqual(1);
    expect(typeof answer.found).toBe('boolean');
    // Retrieval: not the whole transcript, but the rare words' place with its neighbours.
    const given = [...prompt.matchAll(/^\[(\d+)\] /gm)].map((m) => Number(m[1]));
    expect(given.length).toBeLessThan(segments.length);
    expect(given).toEqual(expect.arrayContaining([248, 249, 250, 251, 252]));
    for (const c of answer.citations) {
      expect(c.transcript_id).toBe(t.id);
      expect(given).toContain(c.segment);
      expect(c.start).toBe(segments[c.segment]!.start);
    }
    if (answer.found) {
      const marks = answerPieces(answer.content, answer.citations).filter((p) => 'cite' in p);
      expect(marks.length).toBeGreaterThan(0);
    } else {
      expect(answer).toEqual({ content: '', citations: [], found: false });
    }
  });
});
