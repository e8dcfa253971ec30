import type { LaneHandlers } from './modules/jobs/queue';
import type { Mailer } from './modules/mail/mailer';
import { sendQueuedMail } from './modules/mail/send-job';
import { runAccountMail } from './modules/accounts/account-mail';
import type { AccountDeps } from './modules/accounts/deps';
import { downloadModelJob, type ModelDownloadTarget } from './modules/engine/whisper/download-job';
import type { LinkImportDeps } from './modules/link-import/deps';
import { runLinkImport } from './modules/link-import/download';
import type { TranscriptionDeps } from './modules/transcription/deps';
import { processTranscript, type PipelineDeps } from './modules/transcription/process';
import { sweepExpiredTranscripts } from './modules/transcription/retention';
import { identifySpeakersJob } from './modules/speakers/identify';
import { deliverWebhook, recoverDeliveries } from './modules/webhooks/deliver';
import { recoverTranscriptJobs } from './modules/transcription/recover-jobs';
import type { WebhookDeps } from './modules/webhooks/deps';
import type { InsightDeps } from './modules/insights/deps';
import { runInsightJob } from './modules/insights/run';
import { runAnswerJob } from './modules/ask/run';
import { sweepExpiredRenders } from './modules/render/files';

import type { RenderDeps } from './modules/render/deps';
import { processRender } from './modules/render/process';
import type { TranslationDeps } from './modules/translation/deps';
import { processTrack } from './modules/translation/process';
import { processRetranslation } from './modules/translation/retranslate';

// Which function runs each job of server/modules/jobs/job-map.ts, lane by lane. The compiler
// asks for a handler for every job name of a lane.

export function transcriptionHandlers(pipeline: PipelineDeps): LaneHandlers<'transcription'> {
  return {
    transcribe: ({ transcriptId }, ctx) => processTranscript(pipeline, transcriptId, ctx),
    'identify-speakers': (payload, ctx) => identifySpeakersJob(pipeline, payload, ctx),
  };
}

export function renderHandlers(render: RenderDeps): LaneHandlers<'render'> {
  return {
    'render-video': ({ renderId }, ctx) => processRender(render, renderId, ctx),
  };
}

export function languageHandlers(deps: {
  translation: TranslationDeps;
  insights: InsightDeps;
}): LaneHandlers<'language'> {
  return {
    'translate-track': ({ trackId }, ctx) => processTrack(deps.translation, trackId, ctx),
    'retranslate-segment': (payload, ctx) => processRetranslation(deps.translation, payload, ctx),
    'generate-insight': (payload, ctx) => runInsightJob(deps.insights, payload, ctx),
  };
}

export function askHandlers(insights: InsightDeps): LaneHandlers<'ask'> {
  return {
    'answer-question': (payload, ctx) => runAnswerJob(insights, payload, ctx),
  };
}

export function downloadHandlers(
  target: ModelDownloadTarget,
  linkImport: LinkImportDeps,
): LaneHandlers<'downloads'> {
  return {
    'download-model': (payload, ctx) => downloadModelJob(target, payload, ctx),
    'import-link': (payload, ctx) => runLinkImport(linkImport, payload, ctx),
  };
}

export function backgroundHandlers(deps: {
  mailer: Mailer;
  transcription: TranscriptionDeps;
  accounts: AccountDeps;
  webhooks: WebhookDeps;
}): LaneHandlers<'background'> {
  return {
    'send-mail': (msg) => sendQueuedMail(deps.mailer, msg),
    'account-mail': (job) => runAccountMail(deps.accounts, job),
    'sweep-retention': async () => {
      await sweepExpiredTranscripts(deps.transcription);
      await sweepExpiredRenders(deps.transcription);
    },
    'deliver-webhook': (job) => deliverWebhook(deps.webhooks, job),
    'recover-jobs': async () => {
      await recoverTranscriptJobs(deps.transcription);
      await recoverDeliveries(deps.webhooks);
    },
  };
}
