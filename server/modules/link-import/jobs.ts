import type { JobQueue } from '../jobs/queue';

/**
 * Queues a link import's download, keyed by its transcript (canceling the transcript stops it).
 * `rename`: the transcript takes the file's or page's name when it arrives.
 */
export async function queueLinkDownload(
  queue: JobQueue,
  transcriptId: string,
  o: { rename?: boolean } = {},
): Promise<void> {
  await queue.add('import-link', { transcriptId, rename: o.rename ?? false }, { key: transcriptId });
}
