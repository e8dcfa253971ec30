import { describe, expect, it } from 'vitest';
import { checkJson, extractJson, toOpenAiSchema, validate, type JsonSchema } from './json-schema';

const schema: JsonSchema = {
  type: 'object',
  properties: {
    title: { type: 'string', maxLength: 10 },
    due: { type: ['string', 'null'] },
    kind: { type: 'string', enum: ['a', 'b'] },
    refs: { type: 'array', maxItems: 2, items: { type: 'integer', minimum: 0, maximum: 9 } },
  },
};

describe('structured output schemas', () => {
  it('accepts a valid value and names every problem of an invalid one', () => {
    expect(validate(schema, { title: 'x', due: null, kind: 'a', refs: [1] })).toEqual([]);
    expect(validate(schema, { title: 1, kind: 'c', refs: [1, 2, 30], extra: true })).toEqual([
      '$.title: expected string',
      '$.due: missing',
      '$.kind: not one of a, b',
      '$.refs: more than 2 items',
      '$.refs[2]: above 9',
      '$.extra: not an allowed property',
    ]);
    expect(validate(schema, null)).toEqual(['$: null is not allowed']);
  });

  it('writes the strict OpenAI form: all required, nothing else, no string lengths', () => {
    expect(toOpenAiSchema(schema)).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string' },
        due: { type: ['string', 'null'] },
        kind: { type: 'string', enum: ['a', 'b'] },
        refs: { type: 'array', maxItems: 2, items: { type: 'integer', minimum: 0, maximum: 9 } },
      },
      required: ['title', 'due', 'kind', 'refs'],
      additionalProperties: false,
    });
  });

  it('finds the JSON in a chatty or fenced reply', () => {
    expect(extractJson('{"a":1}')).toEqual({ value: { a: 1 } });
    expect(extractJson('Here you go:\n```json\n{"a":2}\n```')).toEqual({ value: { a: 2 } });
    expect(extractJson('Sure! {"a":3} Hope it helps')).toEqual({ value: { a: 3 } });
    expect(extractJson('no json here')).toBeNull();
    expect(checkJson(schema, 'nothing')).toEqual({ ok: false, problems: ['it is not JSON'] });
  });
});
