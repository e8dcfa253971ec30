import { messageKeyOf } from '../../common/envelope';
import { ApiClientError } from './api-client';
import { apiUrl } from './api';

/** The file name of a Content-Disposition header (RFC 6266: filename* wins). */
export function fileNameFrom(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1]);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

/**
 * A refusal rather than a file: an error status, or our JSON envelope without an attachment. A
 * JSON export is JSON too, so the attachment header, not the content type, tells them apart.
 */
function isRefusal(res: Response): boolean {
  if (!res.ok) return true;
  const attachment = /^\s*attachment/i.test(res.headers.get('content-disposition') ?? '');
  return !attachment && (res.headers.get('content-type') ?? '').includes('application/json');
}

/**
 * Fetches a file from the API and hands it to the browser as a download. Errors arrive as our
 * JSON envelope and are thrown with their (untranslated) message key and data. Answers the
 * response's headers (e.g. what a bulk export skipped).
 */
export async function downloadFile(
  url: string,
  init: RequestInit = {},
  fallback = 'download',
): Promise<Headers> {
  const res = await fetch(url.startsWith('/') ? apiUrl(url) : url, { credentials: 'include', ...init });
  if (isRefusal(res)) {
    let body: { code?: number; message?: string; message_key?: string; data?: unknown } = {};
    try {
      body = (await res.json()) as typeof body;
    } catch {
      body = {};
    }
    throw new ApiClientError(
      body.code ?? res.status,
      messageKeyOf(body) ?? 'errors.requestError',
      body.data ?? null,
    );
  }
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileNameFrom(res.headers.get('content-disposition'), fallback);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
  return res.headers;
}

/** Hands text made in the page to the browser as a download (a summary, chapters). */
export function saveText(text: string, fileName: string, type = 'text/plain') {
  const href = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}

/** A transcript's name as the start of a file name made in the page: letters and digits, '-' between. */
export const fileStem = (name: string) =>
  name.replace(/[^\p{L}\p{N}]+/gu, '-').replace(/^-|-$/g, '') || 'transcript';
