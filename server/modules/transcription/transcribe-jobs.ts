import type { JobQueue } from '../jobs/queue';

// A transcription job is keyed by its transcript, so canceling the transcript reaches the job.

export async function queueTranscription(queue: JobQueue, transcriptId: string): Promise<void> {
  await queue.add('transcribe', { transcriptId }, { key: transcriptId });
}

export async function cancelTranscription(queue: JobQueue, transcriptId: string): Promise<void> {
  await queue.cancel('transcribe', transcriptId);
}
