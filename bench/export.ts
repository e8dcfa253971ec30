// `node --expose-gc --import tsx bench/export.ts`: time and memory of exporting a
// 10,000-segment transcript (about 8 hours of speech) in every format (not a test; no pass/fail).
// Each format runs in a fresh process, so one format's garbage or warmed-up code never shows up
// in another's figures. Per format: the first (cold) run, the median of BENCH_RUNS more (warm),
// the file size, and the growth of the V8 heap (garbage not yet collected included, so roughly
// what the request allocates) and of the process RSS across the cold run.
// BENCH_SEGMENTS (default 10000), BENCH_RUNS (default 5).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { EXPORT_FORMATS, type ExportFormat } from '../common/ranks';
import type { Segment } from '../common/segments';
import { buildExport } from '../server/modules/exports/build';

const SEGMENTS = Number(process.env.BENCH_SEGMENTS ?? 10_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

interface Figures {
  format: ExportFormat;
  coldMs: number;
  warmMs: number;
  bytes: number;
  heapDelta: number;
  rssDelta: number;
}

// Speech-like lines of 6 to 19 words, one in fifty with another script or an emoji, 3 s apart.
function transcript() {
  const words = 'so we looked at the numbers again and the quarter was better than we expected'.split(' ');
  const extra = ['Grüße aus München', '你好，世界', 'مرحبا بالعالم', 'שלום עולם', '👍 sounds good'];
  const segments: Segment[] = Array.from({ length: SEGMENTS }, (_, i) => {
    const line = Array.from({ length: 6 + (i % 14) }, (_, k) => words[(i + k * 7) % words.length]).join(' ');
    return { start: i * 3, end: i * 3 + 2.6, text: i % 50 === 0 ? `${line} ${extra[(i / 50) % 5]}` : line };
  });
  return { name: 'Bench transcript', segments, durationSec: SEGMENTS * 3, language: 'en' };
}

async function measure(format: ExportFormat): Promise<Figures> {
  const t = transcript();
  const run = () => buildExport(t, format, { timestamps: true, productName: 'ClipScribe' });
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage();
  let start = performance.now();
  const file = await run();
  const coldMs = performance.now() - start;
  const after = process.memoryUsage();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    format,
    coldMs,
    warmMs: times[Math.floor(times.length / 2)] ?? coldMs,
    bytes: typeof file.body === 'string' ? Buffer.byteLength(file.body) : file.body.byteLength,
    heapDelta: after.heapUsed - before.heapUsed,
    rssDelta: after.rss - before.rss,
  };
}

const one = process.argv[2] as ExportFormat | undefined;
if (one) {
  console.log(JSON.stringify(await measure(one)));
} else {
  const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;
  console.log(`${SEGMENTS} segments, ${RUNS} warm runs, node ${process.version}`);
  console.log('format  cold ms  warm ms     output     heap Δ      RSS Δ');
  for (const format of EXPORT_FORMATS) {
    const out = execFileSync(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), format],
      { encoding: 'utf8' },
    );
    const f = JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as Figures;
    console.log(
      [
        f.format.padEnd(6),
        f.coldMs.toFixed(0).padStart(7),
        f.warmMs.toFixed(0).padStart(8),
        mb(f.bytes).padStart(10),
        mb(f.heapDelta).padStart(10),
        mb(f.rssDelta).padStart(10),
      ].join('  '),
    );
  }
}
