import type { JobQueue } from '../jobs/queue';

// A transcript's jobs are keyed by the transcript, so canceling the transcript reaches them: the
// download of a link import (modules/link-import/jobs.ts queues it) and the transcription that
// follows it.

export async function queueTranscription(queue: JobQueue, transcriptId: string): Promise<void> {
  await queue.add('transcribe', { transcriptId }, { key: transcriptId });
}

export async function cancelTranscription(queue: JobQueue, transcriptId: string): Promise<void> {
  await queue.cancel('transcribe', transcriptId);
  await queue.cancel('import-link', transcriptId);
}
