import { contentDisposition } from '../../common/exports';
import type { ExportFile } from '../modules/exports/build';

/** A download: exact length, never sniffed; `headers` add caching and indexing rules. */
export function fileResponse(file: ExportFile, headers: Record<string, string>): Response {
  const bytes = typeof file.body === 'string' ? new TextEncoder().encode(file.body) : file.body;
  return new Response(bytes, {
    status: 200,
    headers: {
      'Content-Type': file.contentType,
      'Content-Disposition': contentDisposition(file.filename),
      'Content-Length': String(bytes.byteLength),
      'X-Content-Type-Options': 'nosniff',
      ...headers,
    },
  });
}
