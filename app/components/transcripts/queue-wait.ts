import type { TranscriptJson } from '../../../common/transcript-types';

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * What a queued job says about its wait: "waiting for a free transcriber" and how many files are
 * ahead only when some are (queue_position counts the jobs running and those queued earlier);
 * with none ahead it is about to start, so it says that instead of a wait that isn't there.
 * null when the job is not waiting behind files (running, or waiting for the engine or a download).
 */
export function queueWait(
  t: T,
  job: Pick<TranscriptJson, 'status' | 'stage' | 'queue_position'>,
): { headline: string; detail: string | null } | null {
  const { status, stage, queue_position: ahead } = job;
  if (status !== 'queued' || stage === 'engine' || stage === 'downloading') return null;
  if (ahead === 0) return { headline: t('transcripts.queue.starting'), detail: null };
  return {
    headline: t('pages.transcript.queuedHint'),
    detail: typeof ahead === 'number' ? t('transcripts.queue.ahead', { count: ahead }) : null,
  };
}
