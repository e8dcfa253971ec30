import type { MailMessage } from '../mail/mailer';
import type { AccountMailJob } from '../accounts/account-mail';

// Every kind of background job, by name, with the payload it carries. To add one: a line here,
// a line in JOB_SPECS, and its handler in server/job-handlers.ts (CONTRIBUTING.md, "A job").
// Payloads are stored as JSON (a database row or a Redis entry), so they hold plain data only.

export interface JobMap {
  /** Transcribe one transcript's media (modules/transcription/process.ts). */
  transcribe: { transcriptId: string };
  /**
   * Identify the speakers of a finished transcript (modules/speakers/identify.ts), the text kept
   * as it is.
   */
  'identify-speakers': { transcriptId: string; count: number | null };
  /** Send one rendered mail; retried while the SMTP server refuses or is away. */
  'send-mail': MailMessage;
  /**
   * The address-dependent part of sign-up, re-send and forgot-password (rows, tokens, which
   * mail: modules/accounts/account-mail.ts), off the request path so the answer takes the same
   * time whether or not the address has an account.
   */
  'account-mail': AccountMailJob;
  /** Delete transcripts older than their account's retention allows (hourly). */
  'sweep-retention': Record<string, never>;
  /**
   * Download a link import's media into storage, then queue its transcription
   * (modules/link-import/download.ts).
   */
  'import-link': {
    transcriptId: string;
    /** Name it after the file found (none was given). */ rename: boolean;
  };
  /** Fetch a whisper.cpp model file (`tiny`, `base`, … of server/modules/engine/models/catalogue.ts). */
  'download-model': { model: string };
  /** One attempt of one webhook delivery (modules/webhooks/deliver.ts); it queues its own retry. */
  'deliver-webhook': { deliveryId: string; attempt: number };
  /**
   * Queues again the jobs of transcripts and webhook deliveries that lost theirs (every minute:
   * modules/transcription/recover-jobs.ts).
   */
  'recover-jobs': Record<string, never>;
  /** Make one AI output of a transcript: a summary, chapters, a template's (modules/insights/run.ts). */
  'generate-insight': { insightId: string };
  /** Answer one question about a transcript or a folder (modules/ask/run.ts). */
  'answer-question': { messageId: string };
  /** Make one captioned video (modules/render/process.ts); a cancel kills its ffmpeg. */
  'render-video': { renderId: string };
  /** Translate one transcript into one language (modules/translation/process.ts). */
  'translate-track': { trackId: string };
  /** Translate one segment of a finished track again (modules/translation/retranslate.ts). */
  'retranslate-segment': { trackId: string; index: number };
}

export type JobName = keyof JobMap;

/**
 * Where a job runs. Each lane has its own workers and concurrency, so a long transcription never
 * holds up a mail: `transcription` and `downloads` run where the engine runs (the web process by
 * default, `npm run worker` processes in the distributed mode); `background` runs in every web
 * process; `render` (captioned videos, ffmpeg) runs where the engine runs, one at a time;
 * `language` (language-model work: summaries, templates, translations) beside them, so a summary
 * never waits behind a long recording; `ask` (questions) in the same process as `language`, so a
 * person's question never waits behind a long translation or summary job — it waits at most for
 * the one completion on the model (the local adapter serves interactive completions first).
 */
export type JobLane = 'transcription' | 'downloads' | 'background' | 'render' | 'language' | 'ask';

export interface JobSpec {
  lane: JobLane;
  /**
   * Keep the finished row (status done) for the record. Other jobs' rows go once done: a mail's
   * payload holds a sign-in link, and an hourly sweep would pile up rows.
   */
  keepDone?: boolean;
  /**
   * The job's subject lives in the database (a transcript in `queued`), so a job lost on the way
   * (Redis away when it was added, a crash between the commit and the add, Redis restarted
   * without its data) is queued again by the recovery sweep (modules/jobs/recover.ts): adding it
   * while the queue is away is not an error.
   */
  recoverable?: boolean;
}

export const JOB_SPECS = {
  transcribe: { lane: 'transcription', keepDone: true, recoverable: true },
  'identify-speakers': { lane: 'transcription' },
  'download-model': { lane: 'downloads' },
  'import-link': { lane: 'downloads', recoverable: true },
  'send-mail': { lane: 'background' },
  'account-mail': { lane: 'background' },
  'sweep-retention': { lane: 'background' },
  'deliver-webhook': { lane: 'background', recoverable: true },
  'recover-jobs': { lane: 'background' },
  'generate-insight': { lane: 'language' },
  // A person waits for the answer: its own lane, never behind the language lane's long jobs.
  'answer-question': { lane: 'ask' },
  // Its own lane: a long render never holds up a transcription, nor the other way round.
  'render-video': { lane: 'render', keepDone: true },
  // Language-model work (translations): its own lane beside transcriptions and renders.
  'translate-track': { lane: 'language', keepDone: true },
  'retranslate-segment': { lane: 'language' },
} as const satisfies { [N in JobName]: JobSpec };

export const JOB_NAMES = Object.keys(JOB_SPECS) as JobName[];

export function jobsOfLane(lane: JobLane): JobName[] {
  return JOB_NAMES.filter((n) => JOB_SPECS[n].lane === lane);
}

export function keepsDone(name: JobName): boolean {
  return (JOB_SPECS[name] as JobSpec).keepDone === true;
}

export function isRecoverable(name: JobName): boolean {
  return (JOB_SPECS[name] as JobSpec).recoverable === true;
}

/** The job names of one lane, as a type. */
export type LaneJobs<L extends JobLane> = {
  [N in JobName]: (typeof JOB_SPECS)[N]['lane'] extends L ? N : never;
}[JobName];
