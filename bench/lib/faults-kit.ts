// What both fault matrices (bench/faults.ts: the embedded default; bench/faults-distributed.ts:
// web processes and workers on PostgreSQL, Redis and S3) share: processes read from /proc, the
// API as a client uses it (tus, transcripts), a webhook receiver, a model mirror and the table.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import { testModelPath } from '../../server/test/test-model';
// @ts-expect-error plain ESM helpers shared by the web benches
import { freePort, sleep } from './server.mjs';

export const JOB_BOUND_MS = 10 * 60_000;

export interface Row {
  fault: string;
  inFlight: string;
  outcome: string;
  lost: string;
  duplicates: string;
  ok: boolean;
}

// ---------- processes ----------

/** Every process below `pid` (from /proc). */
export function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* gone */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (out.push(c), walk(c)));
  walk(pid);
  return out;
}
export const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};
export const cmdline = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
  } catch {
    return '';
  }
};
/** The whisper child below `pid`, if one runs. */
export const engineBelow = (pid: number) => descendants(pid).find((p) => /whisper-child/.test(cmdline(p)));

export async function until<T>(
  what: string,
  ms: number,
  fn: () => T | Promise<T>,
  everyMs = 200,
): Promise<Exclude<T, undefined | null | false | 0 | ''>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v as Exclude<T, undefined | null | false | 0 | ''>;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms: ${what}`);
    await sleep(everyMs);
  }
}

// ---------- the API, as a client uses it ----------

export interface Web {
  base: string;
}
export interface Session {
  headers: Record<string, string>;
}

export async function api(app: Web, s: Session, method: string, p: string, body?: unknown) {
  const r = await fetch(`${app.base}/self-api/v1${p}`, {
    method,
    headers: { ...s.headers, origin: app.base, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(600_000),
  });
  const text = await r.text();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let json: { code: number; message: string; message_key?: string; data: any } | null = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, json, text };
}

const b64 = (v: string) => Buffer.from(v).toString('base64');

export async function tusCreate(app: Web, s: Session, size: number, name: string) {
  const r = await fetch(`${app.base}/self-api/v1/uploads`, {
    method: 'POST',
    headers: {
      ...s.headers,
      origin: app.base,
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
      'Upload-Metadata': `filename ${b64(name)},filetype ${b64('audio/wav')}`,
    },
  });
  if (r.status !== 201) throw new Error(`tus create ${r.status} ${await r.text()}`);
  return r.headers.get('location')!.split('/').pop()!;
}
export async function tusOffset(app: Web, s: Session, id: string): Promise<number | null> {
  const r = await fetch(`${app.base}/self-api/v1/uploads/${id}`, {
    method: 'HEAD',
    headers: { ...s.headers, origin: app.base, 'Tus-Resumable': '1.0.0' },
  }).catch(() => null);
  return r?.status === 200 ? Number(r.headers.get('upload-offset')) : null;
}
/** tus PATCHes of `chunk` bytes from `from`, `pauseMs` between; stops at the first answer other than 204. */
export async function tusSend(
  app: Web,
  s: Session,
  id: string,
  bytes: Buffer,
  from: number,
  opts: { chunk: number; pauseMs: number; onAck?: (offset: number) => void },
): Promise<{ offset: number; status: number; body?: string }> {
  let offset = from;
  while (offset < bytes.length) {
    const part = bytes.subarray(offset, Math.min(bytes.length, offset + opts.chunk));
    const r = await fetch(`${app.base}/self-api/v1/uploads/${id}`, {
      method: 'PATCH',
      headers: {
        ...s.headers,
        origin: app.base,
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(part),
      signal: AbortSignal.timeout(600_000),
    }).catch(() => null);
    if (!r) return { offset, status: 0 };
    if (r.status !== 204) return { offset, status: r.status, body: await r.text() };
    offset = Number(r.headers.get('upload-offset'));
    opts.onAck?.(offset);
    if (opts.pauseMs) await sleep(opts.pauseMs);
  }
  return { offset, status: 204 };
}

export interface TranscriptRow {
  status: string;
  error_code?: string | null;
  segments: { start: number; text: string }[];
  progress: number;
}
export async function transcript(app: Web, s: Session, id: string) {
  return (await api(app, s, 'GET', `/transcripts/${id}`)).json?.data as TranscriptRow | undefined;
}

/** Polls (through any of `apps`, the first that answers) until the transcript is done or failed. */
export async function waitEnded(apps: Web | Web[], s: Session, id: string, ms = JOB_BOUND_MS) {
  const list = Array.isArray(apps) ? apps : [apps];
  const t0 = performance.now();
  const t = await until(
    `transcript ${id} to end`,
    ms,
    async () => {
      for (const app of list) {
        const row = await transcript(app, s, id).catch(() => undefined);
        if (row) return row.status === 'done' || row.status === 'failed' ? row : undefined;
      }
      return undefined;
    },
    1_000,
  );
  return { ...t, seconds: Math.round((performance.now() - t0) / 1000) };
}

/** Segments twice (the same start time twice) would mean two runs wrote into one transcript. */
export function doubled(segments: { start: number }[]) {
  const starts = segments.map((x) => x.start.toFixed(3));
  return starts.length - new Set(starts).size;
}

/** A whole upload in 4 MB PATCHes; a PATCH without an answer is resumed from HEAD, as tus clients do. */
export async function upload(app: Web, s: Session, file: string, name: string) {
  const bytes = readFileSync(file);
  const id = await tusCreate(app, s, bytes.length, name);
  let from = 0;
  for (let attempt = 0; ; attempt++) {
    const sent = await tusSend(app, s, id, bytes, from, { chunk: 4 << 20, pauseMs: 0 });
    if (sent.status === 204) return id;
    if (sent.status !== 0 || attempt >= 3) throw new Error(`upload ${sent.status} ${sent.body ?? ''}`);
    await sleep(1_000);
    from = (await tusOffset(app, s, id)) ?? from;
  }
}
/** Speech detection off: the engine works on the whole file (a tone has no speech to find). */
export async function createTranscript(app: Web, s: Session, uploadId: string) {
  const r = await api(app, s, 'POST', '/transcripts', { upload_id: uploadId, detect_speech: false });
  if (r.status !== 200) throw new Error(`create transcript ${r.status} ${r.text}`);
  return r.json!.data.id as string;
}

// ---------- the world around: webhooks, the model ----------

export interface Hooks {
  url: string;
  got: { id: string; type: string; body: string }[];
  server: Server;
  /** The deliveries of `event` for transcript `id`: how many, and how many ids. */
  deliveries(event: string, id: string): { count: number; ids: number };
}

export async function hookReceiver(): Promise<Hooks> {
  const got: Hooks['got'] = [];
  const port: number = await freePort();
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      let type = '';
      try {
        type = (JSON.parse(body) as { type?: string }).type ?? '';
      } catch {
        /* not JSON */
      }
      got.push({ id: String(req.headers['webhook-id']), type, body });
      res.writeHead(200).end();
    });
  }).listen(port, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}/hook`,
    got,
    server,
    deliveries(event, id) {
      const mine = got.filter((g) => g.type === event && g.body.includes(id));
      return { count: mine.length, ids: new Set(mine.map((g) => g.id)).size };
    },
  };
}

/** The project's random-weight model served as ggml-base.bin, so a damaged copy can be fetched again offline. */
export async function modelMirror() {
  const modelBytes = readFileSync(await testModelPath());
  const port: number = await freePort();
  const server = createServer((req, res) => {
    if (!req.url?.endsWith('/ggml-base.bin')) return res.writeHead(404).end();
    res.writeHead(200, { 'content-length': modelBytes.length }).end(modelBytes);
  }).listen(port, '127.0.0.1');
  return {
    url: `http://127.0.0.1:${port}`,
    sha1: createHash('sha1').update(modelBytes).digest('hex'),
    server,
  };
}

// ---------- the run ----------

export type Scenario<C> = (ctx: C) => Promise<Omit<Row, 'ok'> & { ok?: boolean }>;

/** Runs each scenario (those named in --only), one row each; a thrown error is a row too. */
export async function runRows<C>(
  scenarios: [string, Scenario<C>][],
  ctx: C,
  only: string[] | undefined,
  onError: (ctx: C) => Promise<void>,
) {
  const rows: Row[] = [];
  for (const [name, scenario] of scenarios) {
    if (only && !only.includes(name)) continue;
    const t0 = performance.now();
    process.stdout.write(`${name}… `);
    try {
      const row = await scenario(ctx);
      rows.push({ ...row, ok: row.ok ?? true });
      console.log(
        `${row.ok === false ? 'PROBLEM' : 'ok'} (${Math.round((performance.now() - t0) / 1000)} s)`,
      );
      if (row.ok === false)
        console.log(`  ${row.outcome} · lost: ${row.lost} · duplicates: ${row.duplicates}`);
    } catch (err) {
      rows.push({
        fault: name,
        inFlight: '-',
        outcome: `bench error: ${(err as Error).message}`,
        lost: '?',
        duplicates: '?',
        ok: false,
      });
      const e = err as Error & { cause?: Error };
      console.log(
        `ERROR ${e.message}${e.cause ? ` (${e.cause.message})` : ''}\n${e.stack?.split('\n').slice(1, 4).join('\n')}`,
      );
      await onError(ctx).catch((e: Error) => console.log(`  (could not recover: ${e.message})`));
    }
  }
  return rows;
}

export function table(rows: Row[]) {
  const head: (keyof Row)[] = ['fault', 'inFlight', 'outcome', 'lost', 'duplicates'];
  const titles = ['fault', 'work in flight', 'outcome', 'data lost', 'duplicates'];
  return [
    `| ${titles.join(' | ')} |`,
    `| ${titles.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${head.map((k) => String(r[k]).replace(/\|/g, '/')).join(' | ')} |`),
  ].join('\n');
}

export function onlyArg(): string[] | undefined {
  return (
    process.argv.find((a) => a.startsWith('--only='))?.slice(7) ??
    (process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined)
  )
    ?.split(',')
    .filter(Boolean);
}

/** Prints the table (and writes it to `file`); exit code 1 when a row lost or doubled something. */
export function report(rows: Row[], what: string, file: string) {
  const md = table(rows);
  console.log(
    `\nFault matrix, ${what} (${new Date().toISOString()}; 2 shared cores, WHISPER_THREADS=1):\n\n${md}\n`,
  );
  writeFileSync(file, `${md}\n`);
  const bad = rows.filter((r) => !r.ok);
  console.log(
    bad.length
      ? `${bad.length} row(s) with a problem: ${bad.map((r) => r.fault).join('; ')}`
      : 'Every row: nothing lost, nothing doubled.',
  );
  process.exitCode = bad.length ? 1 : 0;
}
