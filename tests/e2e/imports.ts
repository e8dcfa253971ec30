import { readFileSync } from 'node:fs';
import path from 'node:path';
import { makeMedia } from '../../server/test/media';
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

/** Three timed lines (the second holds "keyword") that the workspace tests read back. */
export const TALK_SRT = [
  '1\n00:00:01,000 --> 00:00:03,000\nFirst line of the talk',
  '2\n00:00:04,000 --> 00:00:06,500\nSecond line with a keyword',
  '3\n00:00:07,000 --> 00:00:09,000\nThird and last line',
].join('\n\n');

/** A finished transcript of TALK_SRT named `name`, with 12 s of `kind` media uploaded as talk.mp4. */
export function importTalk(
  url: string,
  headers: Record<string, string>,
  name: string,
  kind: 'mp4' | 'avi' = 'mp4',
) {
  return importCaptions(
    url,
    headers,
    { text: TALK_SRT, fileName: 'talk.srt', name },
    { file: makeMedia(path.resolve('tmp/test-media'), kind, 12), fileName: 'talk.mp4' },
  );
}
