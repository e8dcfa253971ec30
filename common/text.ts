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

/** Every string in a parsed body or query, with its path, for the input layer's check. */
export function firstControlChar(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string')
    return hasControlChars(value, { multiline: true }) ? path.join('.') || '_' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstControlChar(value[i], [...path, String(i)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object' && !(value instanceof Blob)) {
    for (const [k, v] of Object.entries(value)) {
      const found = firstControlChar(v, [...path, k]);
      if (found !== null) return found;
    }
  }
  return null;
}
