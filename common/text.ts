import { z } from 'zod';

// Text that people type or upload. PostgreSQL's text cannot hold NUL (the insert fails), and the
// other control characters are never meant: they come from binary junk, copy-paste accidents or
// probes. One rule for every field: refused in what the API reads (a clear 422), stripped from
// files we parse (captions, file names), where refusing a whole file for one stray byte helps
// nobody. Line breaks and tabs are text in multi-line fields.

// C0 controls and DEL and the C1 block; \t \n \r are allowed only where lines are.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
// Lone surrogates (half of an emoji): not Unicode, and not storable as UTF-8.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export const CONTROL_CHARS_MESSAGE = 'validation.controlChars';

export interface TextOptions {
  /** Keep line breaks and tabs (segment text, descriptions). */
  multiline?: boolean;
}

/** True when the text holds a character no text field may hold. */
export function hasControlChars(value: string, opts: TextOptions = {}): boolean {
  const re = opts.multiline ? CONTROL_BUT_LINES : CONTROL;
  re.lastIndex = 0;
  LONE_SURROGATE.lastIndex = 0;
  return re.test(value) || LONE_SURROGATE.test(value);
}

/** The text without the characters no text field may hold (for files and names we parse). */
export function stripControlChars(value: string, opts: TextOptions = {}): string {
  return value.replace(opts.multiline ? CONTROL_BUT_LINES : CONTROL, '').replace(LONE_SURROGATE, '');
}

/**
 * The one schema for typed text: refuses control characters (422 `validation.controlChars` on
 * the field), then trims (single-line fields) and checks the length. `min` 1 makes it required.
 */
export function textField(opts: TextOptions & { max: number; min?: number; maxMessage?: string }) {
  const base = z.string().refine((v) => !hasControlChars(v, opts), CONTROL_CHARS_MESSAGE);
  const trimmed = opts.multiline ? base : base.transform((v) => v.trim());
  return trimmed.pipe(
    z
      .string()
      .min(opts.min ?? 0, 'validation.required')
      .max(opts.max, opts.maxMessage ?? 'validation.tooLong'),
  );
}

/** Nesting deeper than this in a request body is refused (422): no form of ours nests past 5. */
export const MAX_INPUT_DEPTH = 64;
export const TOO_DEEP_MESSAGE = 'validation.tooDeep';

/**
 * The first problem in a parsed body or query, for the input layer's check: the path of a string
 * holding a control character, or of a value nested deeper than MAX_INPUT_DEPTH. Walked with a
 * stack of its own, never recursion, so no body can exhaust the call stack (a 500 before).
 */
export function firstInputProblem(value: unknown): { path: string; message: string } | null {
  const stack: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (stack.length > 0) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (hasControlChars(v, { multiline: true }))
        return { path: path.join('.') || '_', message: CONTROL_CHARS_MESSAGE };
      continue;
    }
    if (!v || typeof v !== 'object' || v instanceof Blob) continue;
    if (path.length >= MAX_INPUT_DEPTH)
      return { path: path.slice(0, 3).join('.') || '_', message: TOO_DEEP_MESSAGE };
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    // Pushed in reverse so the first field is looked at first (the path a person expects).
    for (let i = entries.length - 1; i >= 0; i--) {
      stack.push({ value: entries[i]![1], path: [...path, entries[i]![0]] });
    }
  }
  return null;
}
