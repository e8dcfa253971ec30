import type { Db } from '../../db/client';
import type { Logger } from '../../logger';
import type { JobQueue } from '../jobs/queue';
import type { Storage } from '../storage/storage';

/** What renders need: the database, the queue (the `render` lane), media storage and ffmpeg. */
export interface RenderDeps {
  db: Db;
  queue: JobQueue;
  storage: Storage;
  logger: Logger;
  now: () => Date;
  /** The ffmpeg that renders (the npm-shipped static one: libass, x264). */
  ffmpeg: string;
  ffprobe: string;
  /** This process's scratch folder (server/process/scratch.ts). */
  tmpDir: () => string;
  /** The "Made with …" mark's name (APP_NAME). */
  appName: string;
}
