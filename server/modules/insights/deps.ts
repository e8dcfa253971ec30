import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { TranscriptEvents } from '../jobs/events';
import type { JobQueue } from '../jobs/queue';
import type { LanguageModel } from '../language-model/types';

export interface InsightDeps {
  db: Db;
  queue: JobQueue;
  /** The transcript's event channel: insight progress and tokens reach the page through it. */
  events: TranscriptEvents;
  model: LanguageModel;
  logger: Logger;
  now: () => Date;
  /** Records a webhook event for the transcript's owner (summary.completed); never throws. */
  emit?: (workspaceId: string, event: 'summary.completed', data: Record<string, unknown>) => Promise<void>;
}
