#!/usr/bin/env node
// The README's API example: with only an API key, upload a file (tus) and start the
// transcription — or hand the server a link to download — wait for it (polling), and save the
// transcript. Node 20+, no dependencies.
//
//   CLIPSCRIBE_URL=https://your.server CLIPSCRIBE_KEY=csk_… node scripts/api-example.mjs talk.mp4 srt
//   CLIPSCRIBE_URL=https://your.server CLIPSCRIBE_KEY=csk_… node scripts/api-example.mjs https://…/talk.mp3 srt
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

const base = (process.env.CLIPSCRIBE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const key = process.env.CLIPSCRIBE_KEY;
const [file, format = 'srt'] = process.argv.slice(2);
if (!key || !file) {
  console.error(
    'usage: CLIPSCRIBE_KEY=csk_… node scripts/api-example.mjs <media file or link> [txt|srt|vtt|docx|json]',
  );
  process.exit(2);
}
const auth = { authorization: `Bearer ${key}` };

async function call(method, p, body) {
  const res = await fetch(base + p, {
    method,
    headers: { ...auth, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json();
  if (json.code !== 200) throw new Error(`${method} ${p}: ${json.code} ${json.message}`);
  return json.data;
}

// 1. Upload with tus 1.0: create the upload, then send the bytes (one PATCH; resumable in chunks).
async function upload() {
  const bytes = await readFile(file);
  const b64 = (s) => Buffer.from(s).toString('base64');
  const created = await fetch(`${base}/self-api/v1/uploads`, {
    method: 'POST',
    headers: {
      ...auth,
      'tus-resumable': '1.0.0',
      'upload-length': String(bytes.length),
      'upload-metadata': `filename ${b64(path.basename(file))}`,
    },
  });
  if (created.status !== 201) throw new Error(`upload refused: ${created.status} ${await created.text()}`);
  const uploadUrl = new URL(created.headers.get('location'), base).href;
  const sent = await fetch(uploadUrl, {
    method: 'PATCH',
    headers: {
      ...auth,
      'tus-resumable': '1.0.0',
      'upload-offset': '0',
      'content-type': 'application/offset+octet-stream',
    },
    body: bytes,
  });
  if (sent.status !== 204) throw new Error(`upload failed: ${sent.status} ${await sent.text()}`);
  return uploadUrl.split('/').pop();
}

// 2. Start the transcription of the upload — or of a link, which the server downloads itself
//    (the plan's size and length limits apply while it arrives; progress shows as 'downloading').
const link = /^https?:\/\//i.test(file);
let transcript = link
  ? await call('POST', '/self-api/v1/transcripts/from-link', { url: file, language: 'auto' })
  : await call('POST', '/self-api/v1/transcripts', { upload_id: await upload(), language: 'auto' });
console.log(`transcript ${transcript.id}: ${transcript.status}`);

// 3. Wait until it is done (or register a webhook instead: see the README).
while (transcript.status === 'queued' || transcript.status === 'processing') {
  await new Promise((r) => setTimeout(r, 2000));
  transcript = await call('GET', `/self-api/v1/transcripts/${transcript.id}`);
  console.log(`  ${transcript.stage ?? transcript.status} ${transcript.progress}%`);
}
if (transcript.status !== 'done')
  throw new Error(`transcription ${transcript.status}: ${transcript.error?.code}`);

// 4. Export it.
const out = await fetch(`${base}/self-api/v1/transcripts/${transcript.id}/export?format=${format}`, {
  headers: auth,
});
if (!out.ok) throw new Error(`export failed: ${out.status}`);
const target = `${link ? transcript.name.replace(/[^\p{L}\p{N} ._-]+/gu, '_') : path.parse(file).name}.${format}`;
await writeFile(target, Buffer.from(await out.arrayBuffer()));
console.log(`saved ${target}`);
