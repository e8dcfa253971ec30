import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tusUpload } from '../../server/test/tus';

/**
 * Imports a caption file as a finished transcript through the API, with its media uploaded over
 * tus first when `media` names a file. Returns the transcript's id.
 */
export async function importCaptions(
  url: string,
  headers: Record<string, string>,
  captions: { text: string; fileName: string; type?: string; name?: string },
  media?: { file: string; fileName?: string; type?: string },
): Promise<string> {
  const form = new FormData();
  form.set(
    'file',
    new File([captions.text], captions.fileName, captions.type ? { type: captions.type } : {}),
  );
  if (captions.name) form.set('name', captions.name);
  if (media) {
    const fetcher = (p: string, init: RequestInit) => fetch(`${url}${p}`, init);
    const bytes = readFileSync(media.file);
    const opts = media.type ? { filetype: media.type } : {};
    const { id } = await tusUpload(
      fetcher,
      headers,
      bytes,
      media.fileName ?? path.basename(media.file),
      opts,
    );
    form.set('upload_id', id!);
  }
  const res = await fetch(`${url}/self-api/v1/transcripts/import`, { method: 'POST', headers, body: form });
  return ((await res.json()) as { data: { id: string } }).data.id;
}
