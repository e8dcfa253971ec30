import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { TranscriptEvents } from '../jobs/events';
import type { JobQueue } from '../jobs/queue';
import type { Storage } from '../storage/storage';
import type { Uploads } from '../uploads/uploads';

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
}
