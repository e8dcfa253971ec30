import { stripControlChars } from '../../../common/text';

/** The file name without its extension, as the default transcript name. */
export function nameFromFile(filename: string): string {
  const clean = stripControlChars(filename);
  const base = clean.replace(/\.[^./\\]{1,8}$/, '').trim();
  return (base || clean.trim() || 'Transcript').slice(0, 200);
}
