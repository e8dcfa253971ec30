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
 * Fetches a file from the API and hands it to the browser as a download. Errors arrive as our
 * JSON envelope and are thrown with their (untranslated) message key and data.
 */
export async function downloadFile(url: string, init: RequestInit = {}, fallback = 'download') {
  const res = await fetch(url.startsWith('/') ? apiUrl(url) : url, { credentials: 'include', ...init });
  if (!res.ok || res.headers.get('content-type')?.includes('application/json')) {
    let body: { code?: number; message?: string; data?: unknown } = {};
    try {
      body = (await res.json()) as typeof body;
    } catch {
      body = {};
    }
    throw new ApiClientError(
      body.code ?? res.status,
      body.message ?? 'errors.requestError',
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
