type Fetcher = (path: string, init: RequestInit) => Promise<Response> | Response;

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

/**
 * Uploads bytes with the tus 1.0 protocol the way tus-js-client does: POST to create, then
 * PATCH chunks at the server's offset. Returns the upload id (or the failing response).
 */
export async function tusUpload(
  fetcher: Fetcher,
  headers: Record<string, string>,
  bytes: Buffer,
  filename: string,
  opts: { chunkSize?: number; declaredLength?: number; filetype?: string } = {},
): Promise<{ id: string | null; response: Response }> {
  const create = await fetcher('/self-api/v1/uploads', {
    method: 'POST',
    headers: {
      ...headers,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(opts.declaredLength ?? bytes.length),
      'Upload-Metadata': `filename ${b64(filename)},filetype ${b64(opts.filetype ?? 'video/mp4')}`,
    },
  });
  if (create.status !== 201) return { id: null, response: create };
  const location = create.headers.get('location')!;
  const id = location.split('/').pop()!;
  const chunk = opts.chunkSize ?? bytes.length;
  let offset = 0;
  let last: Response = create;
  do {
    const part = bytes.subarray(offset, offset + chunk);
    last = await fetcher(`/self-api/v1/uploads/${id}`, {
      method: 'PATCH',
      headers: {
        ...headers,
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(part),
    });
    if (last.status !== 204) return { id, response: last };
    offset = Number(last.headers.get('upload-offset'));
  } while (offset < bytes.length);
  return { id, response: last };
}
