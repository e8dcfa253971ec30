import type { PrivateAllowance } from '../outbound/address';
import type { TranscriptionDeps } from '../transcription/deps';
import type { YtDlp } from './yt-dlp';

export interface LinkImportDeps {
  transcription: TranscriptionDeps;
  /** ALLOW_PRIVATE_URLS. */
  allowPrivate: PrivateAllowance;
  /** The yt-dlp found at start, or null (page links are then refused as "not media"). */
  ytDlp: YtDlp | null;
  /** Where downloads are written before they move into storage (under DATA_DIR: same disk). */
  workDir: string;
  /** The longest a whole download may take (LINK_IMPORT_TIMEOUT_MS). */
  timeoutMs: number;
  /** A download that receives nothing for this long is given up (default 60 s). */
  idleMs?: number;
  /** Minimum time between progress writes to the database. */
  saveIntervalMs?: number;
}
