// The JSON Schema subset structured output uses: what both a llama.cpp grammar and OpenAI's strict
// json_schema mode can express. Objects list every property as required and allow no others;
// `null` is allowed only beside a primitive type (`type: ['string', 'null']`). Lengths bound what a
// local model may generate (a random-weight or confused model then still ends); an endpoint that
// does not take them gets the schema without them, and the answer is validated here either way.

type Primitive = 'string' | 'integer' | 'number' | 'boolean';

export type JsonSchema =
  | {
      type: 'object';
      properties: Record<string, JsonSchema>;
      description?: string;
    }
  | { type: 'array'; items: JsonSchema; minItems?: number; maxItems?: number; description?: string }
  | {
      type: Primitive | readonly [Primitive, 'null'];
      enum?: readonly (string | number)[];
      minLength?: number;
      maxLength?: number;
      minimum?: number;
      maximum?: number;
      description?: string;
    };

const typesOf = (s: JsonSchema): readonly string[] => (Array.isArray(s.type) ? s.type : [s.type as string]);

/** What is wrong with `value` against `schema` (empty when valid), at most `limit` findings. */
export function validate(schema: JsonSchema, value: unknown, limit = 10): string[] {
  const errors: string[] = [];
  const walk = (s: JsonSchema, v: unknown, at: string) => {
    if (errors.length >= limit) return;
    const types = typesOf(s);
    if (v === null) {
      if (!types.includes('null')) errors.push(`${at}: null is not allowed`);
      return;
    }
    if (s.type === 'object') {
      if (typeof v !== 'object' || Array.isArray(v)) return void errors.push(`${at}: expected an object`);
      const obj = v as Record<string, unknown>;
      for (const [key, sub] of Object.entries(s.properties)) {
        if (!Object.hasOwn(obj, key)) errors.push(`${at}.${key}: missing`);
        else walk(sub, obj[key], `${at}.${key}`);
      }
      for (const key of Object.keys(obj))
        if (!Object.hasOwn(s.properties, key)) errors.push(`${at}.${key}: not an allowed property`);
      return;
    }
    if (s.type === 'array') {
      if (!Array.isArray(v)) return void errors.push(`${at}: expected an array`);
      if (s.minItems !== undefined && v.length < s.minItems)
        errors.push(`${at}: fewer than ${s.minItems} items`);
      if (s.maxItems !== undefined && v.length > s.maxItems)
        errors.push(`${at}: more than ${s.maxItems} items`);
      v.forEach((item, i) => walk(s.items, item, `${at}[${i}]`));
      return;
    }
    const p = s as Extract<JsonSchema, { enum?: unknown }>;
    const ok =
      (types.includes('string') && typeof v === 'string') ||
      (types.includes('boolean') && typeof v === 'boolean') ||
      (types.includes('number') && typeof v === 'number' && Number.isFinite(v)) ||
      (types.includes('integer') && Number.isInteger(v));
    if (!ok) return void errors.push(`${at}: expected ${types.join(' or ')}`);
    if (p.enum && !p.enum.includes(v as string | number))
      errors.push(`${at}: not one of ${p.enum.join(', ')}`);
    if (typeof v === 'number') {
      if (p.minimum !== undefined && v < p.minimum) errors.push(`${at}: below ${p.minimum}`);
      if (p.maximum !== undefined && v > p.maximum) errors.push(`${at}: above ${p.maximum}`);
    }
    if (typeof v === 'string' && p.minLength !== undefined && v.length < p.minLength)
      errors.push(`${at}: shorter than ${p.minLength}`);
  };
  walk(schema, value, '$');
  return errors;
}

/**
 * The schema as OpenAI's strict structured outputs take it: every property required, no other
 * properties, and without the string-length keywords it refuses (lengths are not validated here
 * either: an endpoint's model is not cut off mid-word).
 */
export function toOpenAiSchema(schema: JsonSchema): Record<string, unknown> {
  if (schema.type === 'object') {
    const properties: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(schema.properties)) properties[k] = toOpenAiSchema(v);
    return {
      type: 'object',
      properties,
      required: Object.keys(schema.properties),
      additionalProperties: false,
      ...(schema.description && { description: schema.description }),
    };
  }
  if (schema.type === 'array') {
    const { items, ...rest } = schema;
    return { ...rest, items: toOpenAiSchema(items) };
  }
  const { minLength: _min, maxLength: _max, ...rest } = schema;
  return { ...rest, type: Array.isArray(schema.type) ? [...schema.type] : schema.type };
}

/**
 * The first complete JSON value in a model's text: the whole text, or a fenced ```json block, or
 * the span from the first `{`/`[` to its last closing match. null when none parses.
 */
export function extractJson(text: string): { value: unknown } | null {
  const tries = [text.trim()];
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text);
  if (fenced) tries.push(fenced[1]!.trim());
  const start = text.search(/[{[]/);
  if (start >= 0) {
    const close = text[start] === '{' ? '}' : ']';
    const end = text.lastIndexOf(close);
    if (end > start) tries.push(text.slice(start, end + 1));
  }
  for (const t of tries) {
    try {
      return { value: JSON.parse(t) as unknown };
    } catch {
      // next candidate
    }
  }
  return null;
}

/** The text's JSON value when it is valid against the schema, else what is wrong with it. */
export function checkJson(
  schema: JsonSchema,
  text: string,
): { ok: true; value: unknown } | { ok: false; problems: string[] } {
  const found = extractJson(text);
  if (!found) return { ok: false, problems: ['it is not JSON'] };
  const problems = validate(schema, found.value);
  return problems.length ? { ok: false, problems } : { ok: true, value: found.value };
}

/** The messages of the one repair round: the model sees what it said and what is wrong with it. */
export function repairMessages<M extends { role: 'system' | 'user' | 'assistant'; content: string }>(
  messages: readonly M[],
  reply: string,
  problems: string[],
): { role: 'system' | 'user' | 'assistant'; content: string }[] {
  return [
    ...messages,
    { role: 'assistant', content: reply },
    {
      role: 'user',
      content: `That reply is not valid: ${problems.join('; ')}. Reply again with the corrected JSON value only.`,
    },
  ];
}
