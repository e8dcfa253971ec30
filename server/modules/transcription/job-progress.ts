// The job's bar, in one place: where each part of a transcription run sits in 0–100. The engine
// reports its own 0–100 (transcribing, and identifying speakers when asked); the job adds the
// parts around it — decoding the media before, saving after — and keeps 100 for "done".

/** What the job is doing, in order. */
export type JobPart = 'preparing' | 'engine' | 'saving';

/** Where each part starts and ends on the bar. Decoding and saving take seconds, the engine the rest. */
const SPAN: Record<JobPart, readonly [number, number]> = {
  preparing: [0, 2],
  engine: [2, 98],
  saving: [98, 99],
};

/** The bar's whole percent for `part` being `percent` (0–100) done; never 100 (that is "done"). */
export function jobPercent(part: JobPart, percent: number): number {
  const [from, to] = SPAN[part];
  const share = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0)) / 100;
  return Math.min(99, Math.floor(from + (to - from) * share));
}
