// The llama.cpp grammar (GBNF) of a JSON Schema (our subset, json-schema.ts) for the local model,
// written compact: no whitespace outside strings and the properties in the schema's order. A
// small model on two cores writes a few tokens a second, and every token counts: node-llama-cpp's
// own JSON-schema grammar lets the model break lines and indent (each indented line costs a token
// and a decoding step), and its option to forbid that is not exported. Numbers' bounds stay with
// validation (a grammar cannot bound an integer's value), as before.
import type { JsonSchema } from './json-schema';

/** A GBNF string literal of `text`. */
const literal = (text: string): string =>
  '"' +
  text
    .replace(/[\\"]/g, '\\$&')
    .replace(/[\n\r\t]/g, (c) => ({ '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c]!) +
  '"';

/** One character inside a JSON string: anything but a quote, a backslash or a control; or an escape. */
const CHAR_RULE = 'char ::= [^"\\\\\\x7F\\x00-\\x1F] | "\\\\" ["\\\\/bfnrt] | "\\\\u" [0-9a-fA-F]{4}';
const INTEGER = '"-"? ("0" | [1-9] [0-9]{0,15})';
const NUMBER = `${INTEGER} ("." [0-9]{1,16})? ([eE] [-+]? [0-9]{1,3})?`;

/** `item` between `min` and `max` times (max undefined: no bound), separated by commas. */
function repeat(item: string, min: number, max: number | undefined): string {
  if (max === 0) return '';
  const rest = (from: number, to: number | undefined) =>
    to === undefined
      ? `("," ${item}){${from},}`
      : to === from
        ? `("," ${item}){${from}}`
        : `("," ${item}){${from},${to}}`;
  const some = `${item} ${rest(Math.max(0, min - 1), max === undefined ? undefined : max - 1)}`;
  return min === 0 ? `(${some})?` : some;
}

/**
 * Rules by their body: every value above a literal gets a rule of its own, referred to by name, so
 * a repetition repeats one reference (llama.cpp refuses a grammar whose repetitions copy large
 * inline rules) and equal values share one rule.
 */
class Rules {
  private readonly byBody = new Map<string, string>();
  name(body: string): string {
    let name = this.byBody.get(body);
    if (!name) {
      name = `v${this.byBody.size + 1}`;
      this.byBody.set(body, name);
    }
    return name;
  }
  text(): string {
    return [...this.byBody].map(([body, name]) => `${name} ::= ${body}`).join('\n');
  }
}

function value(schema: JsonSchema, rules: Rules): string {
  if (schema.type === 'object') {
    const parts = Object.entries(schema.properties).map(
      ([key, sub], i) => `${literal(`${i ? ',' : ''}${JSON.stringify(key)}:`)} ${value(sub, rules)}`,
    );
    return rules.name(`"{" ${parts.join(' ')} "}"`);
  }
  if (schema.type === 'array') {
    const items = repeat(value(schema.items, rules), schema.minItems ?? 0, schema.maxItems);
    return rules.name(items ? `"[" ${items} "]"` : '"[" "]"');
  }
  const types = Array.isArray(schema.type) ? schema.type : [schema.type as string];
  let body: string;
  if (schema.enum) body = schema.enum.map((v) => literal(JSON.stringify(v))).join(' | ');
  else if (types.includes('string')) {
    const min = schema.minLength ?? 0;
    const max = schema.maxLength;
    const chars = max === undefined ? `char{${min},}` : max === 0 ? '' : `char{${min},${Math.max(min, max)}}`;
    body = `"\\"" ${chars} "\\""`.replace('  ', ' ');
  } else if (types.includes('integer')) body = INTEGER;
  else if (types.includes('number')) body = NUMBER;
  else body = '"true" | "false"';
  return rules.name(types.includes('null') ? `${rules.name(body)} | "null"` : body);
}

/** The grammar of compact JSON values of `schema`, for node-llama-cpp's `createGrammar`. */
export function compactGrammar(schema: JsonSchema): string {
  const rules = new Rules();
  const root = value(schema, rules);
  return `root ::= ${root}\n${rules.text()}\n${CHAR_RULE}\n`;
}
