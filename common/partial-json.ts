// Readable text from JSON while a model is still writing it: the string values seen so far (the
// last one possibly unfinished), each with the key it belongs to. What the page streams while a
// summary or chapters are generated; the finished value is parsed and validated on the server.

export interface PartialString {
  key: string | null;
  value: string;
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '',
  b: '',
  f: '',
  '"': '"',
  '\\': '\\',
  '/': '/',
};

export function partialStrings(json: string): PartialString[] {
  const out: PartialString[] = [];
  let i = 0;
  let lastKey: string | null = null;
  while (i < json.length) {
    const ch = json[i]!;
    if (ch !== '"') {
      i++;
      continue;
    }
    // A string: read it (possibly to the end of the text, unfinished).
    let value = '';
    i++;
    while (i < json.length && json[i] !== '"') {
      if (json[i] === '\\') {
        const next = json[i + 1];
        if (next === undefined) break;
        if (next === 'u') {
          const hex = json.slice(i + 2, i + 6);
          if (hex.length < 4) break;
          value += String.fromCharCode(parseInt(hex, 16) || 0x20);
          i += 6;
          continue;
        }
        value += ESCAPES[next] ?? next;
        i += 2;
        continue;
      }
      value += json[i];
      i++;
    }
    const closed = i < json.length;
    i++;
    // A key is a string followed by a colon.
    let j = i;
    while (j < json.length && /\s/.test(json[j]!)) j++;
    if (closed && json[j] === ':') {
      lastKey = value;
      i = j + 1;
      continue;
    }
    out.push({ key: lastKey, value });
  }
  return out;
}
