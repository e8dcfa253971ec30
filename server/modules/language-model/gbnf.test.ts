// The compact grammar: its text for each kind of schema, that llama.cpp takes it for the schemas
// the features use, and that a random-weight model sampling freely under it writes valid JSON
// without a byte of whitespace outside strings (node-llama-cpp's own grammar let it indent).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getLlama } from 'node-llama-cpp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLlmModel } from '../../../scripts/make-llm-model.mjs';
import { answerOutput, answerSize } from '../ask/prompt';
import { chaptersOutput, outputSize, summaryOutput } from '../insights/model-output';
import { compactGrammar } from './gbnf';
import { validate, type JsonSchema } from './json-schema';
import { createLocalModel } from './local';
import type { LanguageModel } from './types';

/** The text with its JSON strings' contents taken out: what is left is structure and whitespace. */
function outsideStrings(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else {
      if (c === '"') inString = true;
      out += c;
    }
  }
  return out;
}

const CHAR = 'char ::= [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" ["\\\\/bfnrt] | "\\\\u" [0-9a-fA-F]{4}\n';

describe('compact grammar text', () => {
  it('writes objects in order with no whitespace, arrays within their bounds, one rule per value', () => {
    const g = compactGrammar({
      type: 'object',
      properties: {
        a: { type: 'string', minLength: 1, maxLength: 5 },
        b: { type: 'array', minItems: 1, maxItems: 3, items: { type: 'integer' } },
      },
    });
    expect(g).toBe(
      [
        'root ::= v4',
        'v1 ::= "\\"" char{1,5} "\\""',
        'v2 ::= "-"? ("0" | [1-9] [0-9]{0,15})',
        'v3 ::= "[" v2 ("," v2){0,2} "]"',
        'v4 ::= "{" "\\"a\\":" v1 ",\\"b\\":" v3 "}"',
        CHAR,
      ].join('\n'),
    );
  });

  it('spells enums, nullable values and unbounded or empty arrays', () => {
    expect(compactGrammar({ type: 'string', enum: ['x', 'y'] })).toContain('v1 ::= "\\"x\\"" | "\\"y\\""');
    expect(compactGrammar({ type: 'integer', enum: [3, 4] })).toContain('v1 ::= "3" | "4"');
    expect(compactGrammar({ type: ['string', 'null'], maxLength: 2 })).toContain(
      'v1 ::= "\\"" char{0,2} "\\""\nv2 ::= v1 | "null"',
    );
    expect(compactGrammar({ type: 'array', maxItems: 0, items: { type: 'boolean' } })).toContain(
      'v2 ::= "[" "]"',
    );
    expect(compactGrammar({ type: 'array', items: { type: 'boolean' } })).toContain(
      'v2 ::= "[" (v1 ("," v1){0,})? "]"',
    );
  });
});

describe('compact grammar in llama.cpp', { timeout: 120_000 }, () => {
  let dir: string;
  let model: LanguageModel;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'llm-gbnf-'));
    const modelPath = path.join(dir, 'tiny.gguf');
    await makeLlmModel(modelPath, { preset: 'test' });
    model = createLocalModel({ modelPath, modelName: 'test', threads: 1, contextTokens: 4096 });
  });
  afterAll(async () => {
    await model.close?.();
    await rm(dir, { recursive: true, force: true });
  });

  const size = outputSize(16_384);
  const schemas: [string, JsonSchema][] = [
    ['summary', summaryOutput(size, [0, 1, 2])],
    ['summary, any segment', summaryOutput(size)],
    ['chapters', chaptersOutput({ min: 1, max: 3 }, size, [0, 4, 9])],
    ['answer', answerOutput(answerSize(16_384), [3, 7])],
  ];

  it('takes the grammar of every schema the features use', async () => {
    const llama = await getLlama({
      gpu: false,
      build: 'never',
      logLevel: 'error' as never,
      progressLogs: false,
    });
    for (const [, schema] of schemas)
      await expect(llama.createGrammar({ grammar: compactGrammar(schema) })).resolves.toBeDefined();
  });

  it('makes a freely sampling model write compact, valid JSON', async () => {
    const small: JsonSchema = {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 12 },
        points: {
          type: 'array',
          minItems: 2,
          maxItems: 3,
          items: {
            type: 'object',
            properties: {
              text: { type: 'string', maxLength: 8 },
              segments: { type: 'array', maxItems: 2, items: { type: 'integer', enum: [1, 22] } },
            },
          },
        },
        owner: { type: ['string', 'null'], maxLength: 6 },
      },
    };
    for (let i = 0; i < 3; i++) {
      const result = await model.complete({
        messages: [
          { role: 'user', content: `Summarise, try ${i}: [1] We agreed. [22] Tom sends the budget.` },
        ],
        schema: small,
        temperature: 1,
        maxTokens: 400,
      });
      expect(validate(small, JSON.parse(result.text))).toEqual([]);
      expect(outsideStrings(result.text)).not.toMatch(/\s/);
    }
  });
});
