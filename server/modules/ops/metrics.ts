// What an operator scrapes (Prometheus text format): request latency by kind, queue depth per
// lane, job durations and outcomes, the engine's speed, the model download, and the process
// itself (memory, event-loop delay).
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { transcripts } from '../../db/schema';
import { observeJobs } from '../jobs/run-job';
import type { JobQueue } from '../jobs/queue';
import type { ModelState } from '../engine/models/provision';
import { Counter, Gauge, Histogram, render, type Metric } from './registry';

/** A request's kind, for latency without one series per URL. */
export function requestKind(path: string): string {
  if (path.startsWith('/self-api/v1/uploads')) return 'upload';
  if (/^\/self-api\/v1\/transcripts\/[^/]+\/events$/.test(path)) return 'events';
  if (/\/media$/.test(path)) return 'media';
  if (path.startsWith('/self-api/') || path.startsWith('/common-api/')) return 'api';
  if (path.startsWith('/webhooks/')) return 'webhook';
  if (path.startsWith('/assets/')) return 'asset';
  if (path === '/healthz' || path === '/readyz' || path === '/metrics') return 'ops';
  return 'page';
}

const requests = new Counter(
  'clipscribe_http_requests_total',
  'Requests answered, by kind, method and status class.',
);
const requestSeconds = new Histogram(
  'clipscribe_http_request_duration_seconds',
  'Time to answer a request, by kind (event streams are counted, not timed: they last as long as the page).',
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
);
const jobSeconds = new Histogram(
  'clipscribe_job_duration_seconds',
  'Time a job ran in this process, by job name and outcome (done, retry, handed_back, failed).',
  [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
);
const engineSpeed = new Histogram(
  'clipscribe_transcription_speed_ratio',
  'Seconds of audio transcribed per second of work, per finished transcription (above 1: faster than real time).',
  [0.25, 0.5, 1, 2, 4, 8, 16, 32, 64],
);
const audioSeconds = new Counter(
  'clipscribe_transcribed_audio_seconds_total',
  'Seconds of audio transcribed by this process.',
);

/** Called by the request log for every answered request. */
export function observeRequest(method: string, path: string, status: number, seconds: number) {
  const kind = requestKind(path);
  const labels = { kind, method, status: `${Math.floor(status / 100)}xx` };
  requests.inc(labels);
  if (kind !== 'events') requestSeconds.observe(labels, seconds);
}

/** How long a transcript's audio is (for the engine's speed); null when unknown. */
type AudioLength = (transcriptId: string) => Promise<number | null>;
let audioLength: AudioLength | null = null;

export const transcriptAudioLength =
  (db: Db): AudioLength =>
  async (id) => {
    const [row] = await db
      .select({ durationSec: transcripts.durationSec })
      .from(transcripts)
      .where(eq(transcripts.id, id));
    return row?.durationSec ?? null;
  };
let observing = false;

function observeJobRuns(lookup: AudioLength) {
  audioLength = lookup;
  if (observing) return;
  observing = true;
  observeJobs((run, outcome, seconds) => {
    jobSeconds.observe({ name: run.name, outcome }, seconds);
    if (run.name !== 'transcribe' || outcome !== 'done' || !run.key || seconds <= 0) return;
    void audioLength?.(run.key)
      .then((audio) => {
        if (!audio) return;
        audioSeconds.inc({}, audio);
        engineSpeed.observe({}, audio / seconds);
      })
      .catch(() => undefined);
  });
}

let loopDelay: IntervalHistogram | null = null;

export interface MetricsDeps {
  queue: Pick<JobQueue, 'depth'>;
  audioLength: AudioLength;
  /** The models this process fetches and uses (none in a web process with separate workers). */
  models: () => Array<{ name: string; state: ModelState }>;
}

/** The metrics of this process, rendered on demand. */
export function createMetrics(deps: MetricsDeps): { render(): Promise<string> } {
  observeJobRuns(deps.audioLength);
  loopDelay ??= monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const delay = loopDelay;
  const all: Metric[] = [
    requests,
    requestSeconds,
    jobSeconds,
    engineSpeed,
    audioSeconds,
    new Gauge('clipscribe_queue_jobs', 'Jobs waiting (due or delayed) and running, per lane.', async () => {
      const depth = await deps.queue.depth().catch(() => null);
      if (!depth) return [];
      return Object.entries(depth).flatMap(([lane, d]) => [
        { labels: { lane, state: 'waiting' }, value: d.waiting },
        { labels: { lane, state: 'running' }, value: d.running },
      ]);
    }),
    new Gauge('clipscribe_model_state', 'The model this process uses, 1 for its current state.', () =>
      deps.models().map((m) => ({ labels: { model: m.name, state: m.state.state }, value: 1 })),
    ),
    new Gauge(
      'clipscribe_model_download_ratio',
      'How much of the model is downloaded (0–1) while it downloads.',
      () =>
        deps
          .models()
          .flatMap((m) =>
            m.state.state === 'downloading' && m.state.percent !== null
              ? [{ labels: { model: m.name }, value: m.state.percent / 100 }]
              : [],
          ),
    ),
    new Gauge('clipscribe_process_resident_memory_bytes', 'Resident memory of this process.', () => [
      { value: process.memoryUsage.rss() },
    ]),
    new Gauge('clipscribe_process_heap_used_bytes', 'JavaScript heap in use.', () => [
      { value: process.memoryUsage().heapUsed },
    ]),
    new Gauge(
      'clipscribe_event_loop_delay_seconds',
      'Event-loop delay since the previous scrape: median, 99th percentile and maximum.',
      () => {
        const out = [
          { labels: { quantile: '0.5' }, value: delay.percentile(50) / 1e9 },
          { labels: { quantile: '0.99' }, value: delay.percentile(99) / 1e9 },
          { labels: { quantile: '1' }, value: delay.max / 1e9 },
        ];
        delay.reset();
        return out;
      },
    ),
    new Gauge('clipscribe_process_uptime_seconds', 'Seconds since this process started.', () => [
      { value: process.uptime() },
    ]),
  ];
  return { render: () => render(all) };
}
