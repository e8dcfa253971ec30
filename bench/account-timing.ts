// `npm run bench:account-timing`: do sign-up and forgot-password answer in the same time whether
// or not the address has an account? Production server, scratch data dir;
// pairs of requests in alternating order, each from its own client address (TRUST_PROXY) so the
// per-address limits stay out of the way. Prints medians and their ratio; no pass/fail.
import { performance } from 'node:perf_hooks';
import { startServer } from '../tests/e2e/server';
import { mailTo } from '../tests/e2e/outbox';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 20);
const server = await startServer({ TRUST_PROXY: 'true', LOG_LEVEL: 'error' });
const base = server.url;
let client = 0;
const post = async (path: string, body: unknown) => {
  client++;
  const started = performance.now();
  const res = await fetch(`${base}/common-api/v1${path}`, {
    method: 'POST',
    headers: {
      origin: base,
      'content-type': 'application/json',
      'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
    },
    body: JSON.stringify(body),
  });
  const ms = performance.now() - started;
  const json = (await res.json()) as { code: number };
  if (json.code !== 200) throw new Error(`${path}: ${JSON.stringify(json)}`);
  return ms;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  // Accounts that exist (verified), one per pair so no per-account limit is reached.
  const known: string[] = [];
  for (let i = 0; i < PAIRS; i++) {
    const email = `known-${i}@bench.test`;
    await post('/signup', { email, password: 'bench password 1' });
    const code = /\b(\d{6})\b/.exec((await mailTo(server.dataDir, email)).text ?? '')![1]!;
    await post('/complete-signup', { email, code });
    known.push(email);
  }
  const created = Date.now();
  for (const [label, path, body] of [
    ['forgot-password', '/forgot-password', (email: string) => ({ email })],
    ['sign-up', '/signup', (email: string) => ({ email, password: 'another bench 2' })],
  ] as const) {
    // A sign-up counts against the address's one-mail-a-minute limit, the account's own included.
    if (path === '/signup')
      await new Promise((r) => setTimeout(r, Math.max(0, created + 61_000 - Date.now())));
    const times = { known: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < PAIRS; i++) {
      const order = i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
      for (const kind of order) {
        const email = kind === 'known' ? known[i]! : `${label}-nobody-${i}@bench.test`;
        times[kind].push(await post(path, body(email)));
      }
    }
    const k = median(times.known);
    const u = median(times.unknown);
    console.log(
      `${label.padEnd(16)} median known ${k.toFixed(1)} ms, unknown ${u.toFixed(1)} ms, ratio ${(k / u).toFixed(2)} (${PAIRS} pairs)`,
    );
  }
} finally {
  await server.stop();
}
