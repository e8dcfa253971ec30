import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { TranscriptEvents } from '../jobs/events';
import type { JobQueue } from '../jobs/queue';
import type { Storage } from '../storage/storage';
import type { Uploads } from '../uploads/uploads';

/** What happened to a transcript, for the webhooks (modules/webhooks/transcript-events.ts). */
export type TranscriptNotice =
  | { event: 'transcript.completed' | 'transcript.failed'; transcriptId: string }
  | { event: 'transcript.deleted'; transcriptId: string; workspaceId: string; name: string };

export interface TranscriptionDeps {
  db: Db;
  storage: Storage;
  uploads: Uploads;
  queue: JobQueue;
  events: TranscriptEvents;
  ffprobe: string;
  ffmpeg: string;
  logger: Logger;
  now: () => Date;
  /** Told when a transcript ends or is deleted; never throws. */
  notify?: (notice: TranscriptNotice) => Promise<void>;
}
