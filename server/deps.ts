import path from 'node:path';
import type { Db } from './db/client';
import type { Env } from './env';
import { currentRequestId, type Logger } from './logger';
import type { AccountDeps } from './modules/accounts/deps';
import { createLimiters } from './modules/auth/rate-limits';
import { confirmPassword } from './modules/accounts/confirm-password';
import { createMailer, type Mailer } from './modules/mail/mailer';
import { createEngine, modelDownloadHeaders } from './modules/engine/create-engine';
import type { ModelProvisioner } from './modules/engine/models/provision';
import type { Engine } from './modules/engine/types';
import { createDbQueue } from './modules/jobs/db-queue';
import { createStorageFromEnv } from './modules/storage/from-env';
import { createLocalEvents } from './modules/jobs/events';
import { resolveMediaBinaries } from './modules/media/binaries';
import { removeAccountMedia } from './modules/accounts/account-files';
import { checkStoreAtStart } from './modules/storage/check-at-start';
import { assertAdmission } from './modules/transcription/admission';
import type { TranscriptionDeps } from './modules/transcription/deps';
import { createUploads } from './modules/uploads/uploads';
import { credentialOf } from './http/cookies';
import { readCookie, WORKSPACE_COOKIE, WORKSPACE_HEADER } from '../common/cookies';
import { TranscriptCode } from '../common/error-codes';
import { ApiError } from './modules/errors';
import { resolveActor } from './modules/workspaces/actor';
import { assertCan, membershipOf } from './modules/workspaces/access';
import type { PlansJson } from '../common/plans';
import { billingConfig } from './modules/billing/config';
import type { BillingDeps } from './modules/billing/deps';
import { createPlanCatalogue } from './modules/billing/plans';
import { cancelSubscriptions } from './modules/billing/checkout';
import { affiliateConfig, type AffiliateDeps } from './modules/affiliate/deps';
import { commissionForOrder } from './modules/affiliate/commissions';
import { createToolPages, type ToolPages } from './modules/seo/pages';
import {
  backgroundHandlers,
  downloadHandlers,
  languageHandlers,
  askHandlers,
  renderHandlers,
  transcriptionHandlers,
} from './job-handlers';
import type { TranslationDeps } from './modules/translation/deps';
import { translationWebhooks } from './modules/webhooks/translation-events';
import type { RenderDeps } from './modules/render/deps';
import { renderFfmpegPath } from './modules/render/ffmpeg';
import { createRouteRules, type RouteRules } from './modules/seo/route-rules';
import { createKeyRateLimiter, type KeyRateLimiter } from './modules/api-keys/access';
import type { ApiKeyMailDeps } from './modules/api-keys/keys';
import { authenticate } from './modules/api-keys/authenticate';
import type { WebhookDeps } from './modules/webhooks/deps';
import { transcriptWebhooks } from './modules/webhooks/transcript-events';
import { parseAllowance } from './modules/outbound/address';
import type { LinkImportDeps } from './modules/link-import/deps';
import { detectYtDlp } from './modules/link-import/yt-dlp';
import { createScratch } from './process/scratch';
import type { WorkspaceDeps } from './modules/workspaces/deps';
import type { CommentDeps } from './modules/comments/deps';
import { emitWebhookEvent } from './modules/webhooks/deliver';
import { createLanguageModel } from './modules/language-model/create-language-model';
import type { LanguageModel } from './modules/language-model/types';
import { readiness, type Readiness } from './modules/ops/readiness';
import { createMetrics, transcriptAudioLength } from './modules/ops/metrics';
import type { InsightDeps } from './modules/insights/deps';

const HOUR_MS = 60 * 60 * 1000;
/** How often jobs lost on the way are looked for (modules/transcription/recover-jobs.ts). */
const RECOVER_EVERY_MS = 60_000;

export interface ServiceDeps {
  accounts: AccountDeps;
  transcription: TranscriptionDeps;
  billing: BillingDeps & { plans(): Promise<PlansJson> };
  seo: { tools: ToolPages; rules: RouteRules };
  affiliate: AffiliateDeps;
  /** API keys' per-key minute allowances (docs/decisions/0018-api-keys-webhooks.md). */
  apiKeys: ApiKeyMailDeps & { keyLimiter: KeyRateLimiter };
  webhooks: WebhookDeps;
  /** Imports from a link (docs/decisions/0023-link-import.md). */
  linkImport: LinkImportDeps;
  /** Workspaces, members and invitations (docs/decisions/0027-team-workspaces.md). */
  workspaces: WorkspaceDeps;
  /** Comments on transcripts, their mentions' mails (issue #26 part 4). */
  comments: CommentDeps;
  /**
   * The language model (docs/decisions/0026-language-model.md): an OpenAI-compatible endpoint
   * (LLM_BASE_URL) or the local GGUF model, fetched on first need.
   */
  languageModel: LanguageModel;
  /** Readiness and metrics of this process (modules/ops). */
  ops: {
    readiness(opts?: { needsModel?: boolean }): Promise<Readiness>;
    metrics(): Promise<string>;
  };
  /** Summaries, chapters, answers and templates (docs/decisions/0033-insights.md). */
  insights: InsightDeps;
  /**
   * Starts consuming the language and ask lanes (AI outputs, questions) in this process;
   * startWorker does it too.
   * Separate so tests (and a process without the engine) can run it alone.
   */
  startLanguageWorker(): void;
  /** Captioned-video renders (docs/decisions/0029-captioned-video.md). */
  render: RenderDeps;
  /** Translation tracks (docs/decisions/0030-translation-tracks.md). */
  translation: TranslationDeps;
  /** Starts consuming transcription and model-download jobs (web process or `npm run worker`). */
  startWorker(): void;
  /** Starts consuming mail and sweep jobs and declares the hourly sweeps (every web process). */
  startBackground(): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceOverrides {
  mailer?: Mailer;
  now?: () => Date;
  engine?: Engine;
  /** A language model instead of the configured one (tests). */
  languageModel?: LanguageModel;
  /** Whether the database belongs to this process alone (embedded PGlite). */
  exclusiveDb?: boolean;
  /** How long to wait at start for a media store that cannot be reached (default a minute). */
  storeWaitMs?: number;
}

/**
 * Wires the modules' dependencies from the environment: embedded defaults unless configured. The
 * integrations (ioredis and BullMQ, the AWS SDK, Stripe) are imported only when their settings are
 * present, so a default server never loads them (docs/decisions/0015-lean-by-default.md).
 */
export async function buildServiceDeps(
  env: Env,
  db: Db,
  logger: Logger,
  overrides: ServiceOverrides = {},
): Promise<ServiceDeps> {
  const redis = env.REDIS_URL
    ? new (await import('ioredis')).Redis(env.REDIS_URL, {
        maxRetriesPerRequest: 2,
        enableOfflineQueue: false,
      })
    : null;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis error'));
  const now = overrides.now ?? (() => new Date());
  // Mails are sent by the background lane only (web processes): a worker never makes a mailer,
  // so it says nothing about SMTP it never uses.
  let mailer: Mailer | null = null;
  const makeMailer = () =>
    (mailer ??=
      overrides.mailer ??
      createMailer({
        smtpUrl: env.SMTP_URL,
        from: env.MAIL_FROM,
        outboxDir: path.join(env.DATA_DIR, 'outbox'),
        logger,
      }));

  const media = resolveMediaBinaries(env);
  // Decoded audio and copies of stored media: this process's folder, swept once it is gone.
  const scratch = createScratch();
  const storage = await createStorageFromEnv(env, () => scratch.dir, logger);
  await checkStoreAtStart(
    storage,
    env.S3_BUCKET ? `S3 bucket ${env.S3_BUCKET}` : `DATA_DIR ${env.DATA_DIR}`,
    {
      waitMs: overrides.storeWaitMs ?? 60_000,
      logger,
    },
  );
  // Across processes: Redis pub/sub, else PostgreSQL's LISTEN/NOTIFY (several web processes on one
  // DATABASE_URL), else in this process (the embedded database has one process).
  const events = env.REDIS_URL
    ? (await import('./modules/jobs/redis-events')).createRedisEvents(env.REDIS_URL, logger)
    : env.DATABASE_URL
      ? await (await import('./modules/jobs/pg-events')).createPostgresEvents(env.DATABASE_URL, db, logger)
      : createLocalEvents();
  const queue = env.REDIS_URL
    ? (await import('./modules/jobs/bull-queue')).createBullQueue({
        url: env.REDIS_URL,
        events,
        logger,
        lockMs: env.QUEUE_LOCK_MS,
        prefix: env.QUEUE_PREFIX,
        requestId: currentRequestId,
      })
    : createDbQueue({
        db,
        events,
        logger,
        exclusive: overrides.exclusiveDb ?? !env.DATABASE_URL,
        requestId: currentRequestId,
      });
  const keyLimiter = createKeyRateLimiter(redis);
  const uploads = createUploads({
    dir: path.join(env.DATA_DIR, 'uploads'),
    logger,
    // tus uploads take a session or an API key and a workspace, like every other product call.
    actorOf: async (req) => {
      const auth = await authenticate(
        { db, keyLimiter },
        credentialOf(req.headers.get('authorization'), req.headers.get('cookie')),
        {
          method: req.method,
          path: new URL(req.url).pathname,
        },
      );
      if (!auth) return null;
      return resolveActor(db, auth, {
        header: req.headers.get(WORKSPACE_HEADER),
        cookie: readCookie(req.headers.get('cookie') ?? '', WORKSPACE_COOKIE),
      });
    },
    admit: async (actor, workspaceId, sizeBytes) => {
      const member = await membershipOf(db, actor, workspaceId);
      if (!member) throw new ApiError(TranscriptCode.UPLOAD_NOT_FOUND, 'errors.uploads.notFound');
      assertCan(member.role, 'transcript.create');
      if (sizeBytes !== undefined) await assertAdmission(db, actor.user, { sizeBytes, workspaceId }, now());
    },
    sweepEveryMs: HOUR_MS,
    corsOrigins: env.CORS_ORIGINS,
    shared: storage.kind === 's3' ? storage : null,
  });
  const limiters = createLimiters(redis);
  const webhooks: WebhookDeps = {
    db,
    queue,
    logger,
    now,
    allowPrivate: parseAllowance(env.ALLOW_PRIVATE_URLS),
    retryDelaysMs: env.WEBHOOK_RETRY_SCHEDULE.split(',').map((s) => Math.round(Number(s) * 1000)),
    disableAfter: env.WEBHOOK_DISABLE_AFTER,
    timeoutMs: env.WEBHOOK_TIMEOUT_MS,
    sendMail: (msg) => queue.add('send-mail', msg),
    appName: env.APP_NAME,
    publicUrl: env.PUBLIC_URL ?? null,
    confirmPassword: (user, password) => confirmPassword({ limiters }, user, password),
  };
  const notify = transcriptWebhooks(webhooks);
  const transcription: TranscriptionDeps = {
    db,
    storage,
    uploads,
    queue,
    events,
    ffmpeg: media.ffmpeg,
    ffprobe: media.ffprobe,
    logger,
    now,
    notify,
  };

  const ytDlp = await detectYtDlp(env.YT_DLP_PATH);
  if (ytDlp)
    logger.info({ path: ytDlp.path, version: ytDlp.version }, 'yt-dlp found: page links can be imported');
  const linkImport: LinkImportDeps = {
    transcription,
    allowPrivate: webhooks.allowPrivate,
    ytDlp,
    workDir: path.join(env.DATA_DIR, 'imports'),
    timeoutMs: env.LINK_IMPORT_TIMEOUT_MS,
  };

  const affiliate: AffiliateDeps = { db, config: affiliateConfig(env), logger, now };
  const billingDeps: BillingDeps = {
    db,
    config: await billingConfig(env),
    logger,
    now,
    onOrder: (tx, order) => commissionForOrder(tx, affiliate.config, order),
  };
  const billing = { ...billingDeps, plans: createPlanCatalogue(billingDeps) };

  const accounts: AccountDeps = {
    db,
    sendMail: (msg) => queue.add('send-mail', msg),
    queueAccountMail: (job) => queue.add('account-mail', job),
    limiters,
    appName: env.APP_NAME,
    google: env.GOOGLE_CLIENT_ID
      ? {
          clientId: env.GOOGLE_CLIENT_ID,
          clientSecret: env.GOOGLE_CLIENT_SECRET,
          authEndpoint: env.GOOGLE_AUTH_URL,
          tokenEndpoint: env.GOOGLE_TOKEN_URL,
          jwksUri: env.GOOGLE_JWKS_URL,
        }
      : null,
    now,
    endSubscriptions: (userId) => cancelSubscriptions(billingDeps, userId),
    async removeUserFiles(userId, alsoKeys) {
      await removeAccountMedia(db, storage, userId, alsoKeys);
      await uploads.discardAllOf(userId);
    },
  };

  const workspaces: WorkspaceDeps = {
    db,
    storage,
    queue,
    logger,
    now,
    sendMail: (msg) => queue.add('send-mail', msg),
    appName: env.APP_NAME,
    memberAdded: async (e) => {
      await emitWebhookEvent(webhooks, e.workspaceId, 'member.added', {
        workspace_id: e.workspaceId,
        user_id: e.userId,
        role: e.role,
      }).catch((err: unknown) => logger.error({ err }, 'webhook event not recorded'));
    },
  };
  const comments: CommentDeps = {
    db,
    logger,
    now,
    sendMail: (msg) => queue.add('send-mail', msg),
    appName: env.APP_NAME,
    commentCreated: async (workspaceId, data) => {
      await emitWebhookEvent(webhooks, workspaceId, 'comment.created', data).catch((err: unknown) =>
        logger.error({ err }, 'webhook event not recorded'),
      );
    },
  };

  let engine: Engine | null = null;
  let scratchSweep: NodeJS.Timeout | undefined;
  const sweepScratch = () =>
    scratch
      .sweep()
      .then(
        (n) => n > 0 && logger.info({ removed: n }, 'removed the temporary files of processes that are gone'),
      )
      .catch((err: Error) => logger.warn({ err: err.message }, 'temporary files sweep failed'));
  // Nothing starts here: the local model's child and its download begin with the first completion.
  const llm = overrides.languageModel
    ? { model: overrides.languageModel, provisioner: null }
    : createLanguageModel(env, logger, {
        headers: modelDownloadHeaders(env),
        enqueueModelDownload:
          queue.kind === 'db'
            ? (model, delayMs) => queue.add('download-model', { model }, { key: model, once: true, delayMs })
            : undefined,
      });

  let engineModel: ModelProvisioner | null = null;
  const metrics = createMetrics({
    queue,
    audioLength: transcriptAudioLength(db),
    models: () => (engineModel ? [{ name: engineModel.name, state: engineModel.state() }] : []),
  });
  const ops: ServiceDeps['ops'] = {
    readiness: (opts) => readiness({ db, redis, storage, model: () => engineModel?.state() ?? null }, opts),
    metrics: () => metrics.render(),
  };

  const render: RenderDeps = {
    db,
    queue,
    storage,
    logger,
    now,
    ffmpeg: renderFfmpegPath(),
    ffprobe: media.ffprobe,
    tmpDir: () => scratch.dir,
    appName: env.APP_NAME,
  };

  const translation: TranslationDeps = {
    db,
    queue,
    events,
    model: llm.model,
    logger,
    now,
    notify: translationWebhooks(webhooks),
  };

  const insights: InsightDeps = {
    db,
    queue,
    events,
    model: llm.model,
    logger,
    now,
    emit: async (workspaceId, event, data) => {
      try {
        await emitWebhookEvent(webhooks, workspaceId, event, data);
      } catch (err) {
        logger.error({ err, event }, 'webhook event not recorded');
      }
    },
  };
  let languageLane = false;
  const startLanguageWorker = () => {
    if (languageLane) return;
    languageLane = true;
    // Translations and AI outputs wait on the model (local: one completion at a time in its child).
    queue.work('language', languageHandlers({ translation, insights }), 1);
    // Questions beside them, in this process (the same model): a question starts while a long
    // job runs, and the local model gives its next completion to the question.
    queue.work('ask', askHandlers(insights), 1);
  };

  return {
    ops,
    render,
    translation,
    workspaces,
    comments,
    accounts,
    transcription,
    billing,
    affiliate,
    apiKeys: {
      keyLimiter,
      db,
      now,
      sendMail: (msg) => queue.add('send-mail', msg),
      appName: env.APP_NAME,
      publicUrl: env.PUBLIC_URL ?? null,
    },
    webhooks,
    linkImport,
    languageModel: llm.model,
    insights,
    startLanguageWorker,
    seo: { tools: createToolPages(db), rules: createRouteRules(db) },
    startWorker() {
      let provisioner: ModelProvisioner | null = null;
      if (!engine) {
        const made = overrides.engine
          ? { engine: overrides.engine, provisioner: null }
          : createEngine(env, logger, media.ffmpeg, {
              // The embedded queue runs the download here, as a durable job; BullMQ workers each
              // need the model on their own disk, so each one fetches its own.
              enqueueModelDownload:
                queue.kind === 'db'
                  ? (model, delayMs) =>
                      queue.add('download-model', { model }, { key: model, once: true, delayMs })
                  : undefined,
            });
        engine = made.engine;
        provisioner = made.provisioner;
        engineModel = made.provisioner;
      }
      const pipeline = {
        db,
        storage,
        engine,
        events,
        ffmpeg: media.ffmpeg,
        logger,
        tmpDir: scratch.dir,
        notify,
      };
      queue.work('transcription', transcriptionHandlers(pipeline), env.JOB_CONCURRENCY);
      queue.work(
        'downloads',
        downloadHandlers(
          {
            dataDir: env.DATA_DIR,
            baseUrl: env.WHISPER_MODEL_BASE_URL,
            sha1: env.WHISPER_MODEL_SHA1 ?? null,
            headers: modelDownloadHeaders(env),
            provisioner,
            provisioners: llm.provisioner ? [llm.provisioner] : [],
          },
          linkImport,
        ),
        // A link import need not wait for a model download (or another import) to end.
        2,
      );
      // One render at a time: x264 uses every core it is given.
      queue.work('render', renderHandlers(render), 1);
      startLanguageWorker();
      // The model download (when it is missing) begins now, not with the first job.
      engine.start?.();
      // A worker killed mid-job left its decoded audio behind.
      void sweepScratch();
      scratchSweep ??= setInterval(() => void sweepScratch(), HOUR_MS);
      scratchSweep.unref();
      logger.info(
        { queue: queue.kind, engine: engine.name, concurrency: env.JOB_CONCURRENCY },
        'worker started',
      );
    },
    async startBackground() {
      queue.work(
        'background',
        backgroundHandlers({ mailer: makeMailer(), transcription, accounts, webhooks }),
        2,
      );
      await queue.every('sweep-retention', {}, HOUR_MS);
      await queue.every('recover-jobs', {}, RECOVER_EVERY_MS);
    },
    async close() {
      clearInterval(scratchSweep);
      uploads.close();
      await queue.stop();
      await engine?.close?.();
      await llm.model.close?.();
      await events.close();
      (mailer as Mailer | null)?.close();
      if (redis) await redis.quit().catch(() => undefined);
      scratch.close();
    },
  };
}

/** RUN_WORKER=auto: the web process runs jobs unless workers are separate (REDIS_URL). */
export function webRunsWorker(env: Env): boolean {
  if (env.RUN_WORKER === 'auto') return !env.REDIS_URL;
  return env.RUN_WORKER === 'true';
}
