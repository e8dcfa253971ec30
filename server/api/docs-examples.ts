// Example requests and answers for /api/docs, made from each operation's JSON Schema (the zod
// schemas the handlers validate with), so an example never shows a field the API would refuse.

type Schema = Record<string, unknown>;

const SAMPLE_ID = '0b6f3c2e-5d1a-4c8e-9f7a-2e4d6b8a1c3f';

/** Values that read like the field they fill. */
const BY_NAME: Record<string, unknown> = {
  name: 'Interview with Ada',
  title: 'Interview with Ada',
  url: 'https://example.com/talk.mp4',
  email: 'ada@example.com',
  language: 'en',
  detected_language: 'en',
  lang: 'de',
  text: 'Welcome back to the show.',
  q: 'budget',
  description: 'Nightly import',
  password: 'your-password',
};

function pickType(schema: Schema): string | undefined {
  const t = schema.type;
  if (Array.isArray(t)) return (t as string[]).find((x) => x !== 'null');
  return typeof t === 'string' ? t : undefined;
}

/** A plausible value for `schema` (`name`: the property it fills, when known). */
export function exampleOf(schema: unknown, name = '', depth = 0): unknown {
  if (!schema || typeof schema !== 'object' || depth > 8) return null;
  const s = schema as Schema;
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    const list = s[k];
    if (Array.isArray(list) && list.length) {
      const first = (list as Schema[]).find((x) => x.type !== 'null') ?? list[0];
      return exampleOf(first, name, depth + 1);
    }
  }
  switch (pickType(s)) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(props)) out[key] = exampleOf(value, key, depth + 1);
      return out;
    }
    case 'array': {
      const count = Math.max(1, Number(s.minItems ?? 1));
      return Array.from({ length: Math.min(count, 2) }, () => exampleOf(s.items, name, depth + 1));
    }
    case 'integer':
    case 'number': {
      const min =
        typeof s.minimum === 'number'
          ? s.minimum
          : typeof s.exclusiveMinimum === 'number'
            ? s.exclusiveMinimum + 1
            : 1;
      const max = typeof s.maximum === 'number' ? s.maximum : Infinity;
      return Math.min(Math.max(min, 1), max);
    }
    case 'boolean':
      return true;
    case 'string': {
      if (s.format === 'uuid' || /(^|_)ids?$/.test(name)) return SAMPLE_ID;
      if (s.format === 'date-time') return '2026-01-31T09:30:00.000Z';
      if (s.format === 'email') return 'ada@example.com';
      if (s.format === 'uri' || s.format === 'url') return 'https://example.com/hook';
      if (name in BY_NAME && typeof BY_NAME[name] === 'string') return BY_NAME[name];
      return 'text';
    }
    default:
      return name in BY_NAME ? BY_NAME[name] : null;
  }
}

export interface ExampleOp {
  method: string;
  path: string;
  parameters: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  security: Record<string, unknown>[];
}

/** A request body as a caller would send it: the required fields (and a name), not every default. */
function bodyExample(schema: unknown): unknown {
  const full = exampleOf(schema);
  const s = schema as Schema | undefined;
  if (!full || typeof full !== 'object' || Array.isArray(full) || !s) return full;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const entries = Object.entries(full as Record<string, unknown>);
  const kept = entries.filter(([key]) => required.has(key) || key === 'name');
  return Object.fromEntries(kept.length ? kept : entries.slice(0, 1));
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The operation as one curl command against `origin`. */
export function curlExample(op: ExampleOp, origin: string): string {
  let path = op.path;
  const query = new URLSearchParams();
  for (const p of op.parameters) {
    const value = p.name === 'id' || /Id$/.test(p.name) ? SAMPLE_ID : exampleOf(p.schema, p.name);
    if (p.in === 'path') path = path.replace(`{${p.name}}`, encodeURIComponent(String(value ?? SAMPLE_ID)));
    else if (p.in === 'query' && p.required) query.set(p.name, String(value));
  }
  const qs = query.toString();
  const lines = [`curl -X ${op.method.toUpperCase()} ${quote(`${origin}${path}${qs ? `?${qs}` : ''}`)}`];
  const keyOk = op.security.some((sec) => 'apiKey' in sec);
  if (keyOk) lines.push(`-H 'Authorization: Bearer csk_…'`);
  else if (op.security.length) lines.push(`-b 'token=…'`);
  const content = op.requestBody?.content ?? {};
  const json = content['application/json'];
  const form = content['multipart/form-data'];
  if (json) {
    lines.push(`-H 'Content-Type: application/json'`);
    lines.push(`-d ${quote(JSON.stringify(bodyExample(json.schema)))}`);
  } else if (form) {
    const fields = bodyExample(form.schema) as Record<string, unknown> | null;
    for (const [key, value] of Object.entries(fields ?? {}))
      lines.push(key === 'file' ? `-F 'file=@talk.srt'` : `-F ${quote(`${key}=${String(value)}`)}`);
  }
  return lines.join(' \\\n  ');
}

/** The first field a body requires (for the example of a refused body), else its first field. */
export function firstField(op: ExampleOp): string | null {
  const content = op.requestBody?.content ?? {};
  const schema = (content['application/json'] ?? content['multipart/form-data'])?.schema as
    Schema | undefined;
  if (!schema) return null;
  const required = schema.required as string[] | undefined;
  return required?.[0] ?? Object.keys((schema.properties ?? {}) as object)[0] ?? null;
}
