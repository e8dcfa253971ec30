import { stripControlChars } from '../../../common/text';

/** The file name a Content-Disposition header gives (RFC 6266: filename* first), or null. */
export function filenameFromDisposition(header: string | undefined): string | null {
  if (!header) return null;
  const extended = header.match(/filename\*\s*=\s*([^;]+)/i);
  if (extended) {
    const value = extended[1]!.trim().replace(/^"|"$/g, '');
    const parts = value.match(/^([\w-]+)'[^']*'(.*)$/);
    if (parts) {
      try {
        const name = clean(decodeURIComponent(parts[2]!));
        if (name) return name;
      } catch {
        // A malformed escape: fall back to the plain filename.
      }
    }
  }
  const plain = header.match(/filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/i);
  if (!plain) return null;
  const value = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!.trim();
  return clean(value) || null;
}

/** The last path segment of a URL, decoded (`/media/talk%201.mp3` → `talk 1.mp3`), or null. */
export function filenameFromUrl(url: string): string | null {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return null;
  }
  const last = pathname.split('/').filter(Boolean).pop();
  if (!last) return null;
  try {
    return clean(decodeURIComponent(last)) || null;
  } catch {
    return clean(last) || null;
  }
}

/** A name fit to show: no directories, no control characters, at most 255 characters. */
function clean(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  return stripControlChars(base).trim().slice(0, 255);
}
