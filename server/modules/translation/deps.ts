import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { TranscriptEvents } from '../jobs/events';
import type { JobQueue } from '../jobs/queue';
import type { LanguageModel } from '../language-model/types';

export interface TranslationDeps {
  db: Db;
  queue: JobQueue;
  events: TranscriptEvents;
  model: LanguageModel;
  logger: Logger;
  now: () => Date;
  /** Told when a track is done (the translation.completed webhook); never throws. */
  notify?: (trackId: string) => Promise<void>;
}
