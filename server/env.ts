import { z } from 'zod';
import { BILLING_INTERVALS, PAID_RANKS, stripePriceVar } from '../common/plans';
import { DEFAULT_MODEL_BASE_URL } from './modules/engine/models/catalogue';
import { DEFAULT_LLM_MODEL } from './modules/language-model/catalogue';
import { isAllowanceEntry, parseAllowance } from './modules/outbound/address';

// Every variable the server reads, validated once at start (.env.example lists them all).
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());

export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  APP_NAME: z.string().min(1).default('ClipScribe'),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalUrl,
  REDIS_URL: optionalUrl,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1_048_576),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** Memory for rendered public pages served again to anonymous visitors (production); 0 = off. */
  PAGE_CACHE_MB: z.coerce.number().min(0).max(1024).default(8),
  API_BASE_URL: z.string().default(''),
  // Origins whose pages may call this server's API with the visitor's session (credentialed
  // CORS), comma-separated: set on the API's server when pages use an API_BASE_URL on another
  // origin. COOKIE_DOMAIN (e.g. example.com) shares the session between app. and api. hosts.
  CORS_ORIGINS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const origins: string[] = [];
      for (const item of v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        try {
          const url = new URL(item);
          if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
          origins.push(url.origin);
        } catch {
          ctx.addIssue({ code: 'custom', message: `CORS_ORIGINS: not an http(s) origin: ${item}` });
        }
      }
      return origins;
    }),
  COOKIE_DOMAIN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^\.?[a-z0-9-]+(\.[a-z0-9-]+)+$/i)
      .optional(),
  ),
  GTM_ID: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^GTM-[A-Z0-9]+$/)
      .optional(),
  ),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  // Google's endpoints; overridable so tests can point them at a local server.
  GOOGLE_AUTH_URL: z.string().url().default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: z.string().url().default('https://oauth2.googleapis.com/token'),
  GOOGLE_JWKS_URL: z.string().url().default('https://www.googleapis.com/oauth2/v3/certs'),
  // Behind a reverse proxy, read the client address from X-Forwarded-For.
  TRUST_PROXY: z.preprocess((v) => v === 'true' || v === '1', z.boolean()).default(false),
  SMTP_URL: optionalString,
  // Transcription (docs/decisions/0007, 0008).
  TRANSCRIBE_ENGINE: z.enum(['whisper', 'openai']).default('whisper'),
  WHISPER_MODEL: optionalString,
  WHISPER_MODEL_NAME: z
    .string()
    .regex(/^[a-z0-9._-]+$/)
    .default('base'),
  /** Where the model is fetched from when it is missing (a mirror of whisper.cpp's repository). */
  WHISPER_MODEL_BASE_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().url().default(DEFAULT_MODEL_BASE_URL),
  ),
  /** The SHA-1 a custom model file must have (overrides the published table). */
  WHISPER_MODEL_SHA1: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[0-9a-fA-F]{40}$/, 'a SHA-1 in hex (40 characters)')
      .optional(),
  ),
  /** Fetch the model in the background when it is missing (false: operators install it). */
  WHISPER_MODEL_AUTO_DOWNLOAD: z.preprocess((v) => v !== 'false' && v !== '0', z.boolean()).default(true),
  /** Sent as a bearer token with model downloads (gated or rate-limited mirrors). */
  HF_TOKEN: optionalString,
  /** A mirror serving the speaker-diarization models by file name (default: where they are published). */
  DIARIZATION_MODEL_BASE_URL: optionalUrl,
  /** Where the speaker-diarization models are (default DATA_DIR/models/diarization). */
  DIARIZATION_MODEL_DIR: optionalString,
  /**
   * The sherpa-onnx model families the local engine may use besides Whisper (docs/decisions/0029):
   * a comma list of parakeet, sense-voice; '' or 'none' = Whisper alone. Their models are fetched
   * on first need, like the Whisper model.
   */
  ENGINE_FAMILIES: z.preprocess(
    (v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter((s) => s && s !== 'none') : v),
    z.array(z.enum(['parakeet', 'sense-voice'])).default(['parakeet', 'sense-voice']),
  ),
  /** Mirrors serving each family's files by name (default: where they are published). */
  PARAKEET_MODEL_BASE_URL: optionalUrl,
  SENSE_VOICE_MODEL_BASE_URL: optionalUrl,
  /** Directories that already hold a family's files (default DATA_DIR/models/<family model>). */
  PARAKEET_MODEL_DIR: optionalString,
  SENSE_VOICE_MODEL_DIR: optionalString,
  WHISPER_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  WHISPER_WATCHDOG_MS: z.coerce.number().int().positive().default(600_000),
  /** Decoding temperature; unset = 0 with whisper.cpp's fallback (benches pin it for bounded work). */
  WHISPER_TEMPERATURE: z.coerce.number().min(0).max(1).optional(),
  // Language model (docs/decisions/0026-language-model.md): an OpenAI-compatible endpoint when
  // LLM_BASE_URL is set, else the local GGUF model, fetched on first need like the Whisper model.
  LLM_BASE_URL: optionalUrl,
  LLM_API_KEY: optionalString,
  LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  /** Tokens of context: default 16,384 for the local model, 32,768 for an endpoint. */
  LLM_CONTEXT_TOKENS: z.coerce.number().int().min(1024).max(1_048_576).optional(),
  /** An endpoint's longest wait for the first byte of an answer. */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(1000).default(120_000),
  /** The local model, by its name in server/modules/language-model/catalogue.ts. */
  LLM_MODEL_NAME: z
    .string()
    .regex(/^[a-z0-9._-]+$/)
    .default(DEFAULT_LLM_MODEL),
  /** A GGUF file to use instead of the catalogue's (then no download). */
  LLM_MODEL_PATH: optionalString,
  /** A mirror serving the catalogue's GGUF files by name. */
  LLM_MODEL_BASE_URL: optionalUrl,
  /** The SHA-256 a custom file from the mirror must have (overrides the catalogue). */
  LLM_MODEL_SHA256: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'a SHA-256 in hex (64 characters)')
      .optional(),
  ),
  LLM_MODEL_AUTO_DOWNLOAD: z.preprocess((v) => v !== 'false' && v !== '0', z.boolean()).default(true),
  LLM_THREADS: z.coerce.number().int().min(1).max(256).optional(),
  /** The local model's llama.cpp build: the CPU one, or a GPU one a GPU worker installed. */
  LLM_GPU: z.enum(['off', 'cuda', 'vulkan']).default('off'),
  OPENAI_BASE_URL: z.string().url().default('https://api.openai.com'),
  OPENAI_API_KEY: optionalString,
  OPENAI_MODEL: z.string().default('whisper-1'),
  // Media storage: local disk under DATA_DIR/media unless S3_BUCKET is set.
  S3_BUCKET: optionalString,
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: z.preprocess((v) => v === 'true' || v === '1', z.boolean()).default(false),
  FFMPEG_PATH: optionalString,
  FFPROBE_PATH: optionalString,
  /** Jobs one process runs at once; whisper uses every core for one job, so 1 by default. */
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  /** Whether the web process runs jobs: yes by default, no with REDIS_URL (`npm run worker` does). */
  RUN_WORKER: z.enum(['auto', 'true', 'false']).default('auto'),
  /** BullMQ: how long a job stays locked to a worker that stops renewing it (a killed one). */
  QUEUE_LOCK_MS: z.coerce.number().int().min(1000).default(30_000),
  /** BullMQ key prefix, so several deployments (or test runs) can share one Redis. */
  QUEUE_PREFIX: z
    .string()
    .regex(/^[\w:-]+$/)
    .default('clipscribe'),
  /**
   * GET /metrics (Prometheus text) answers only with `Authorization: Bearer <this>`; unset, the
   * endpoint does not exist. At least 16 characters.
   */
  METRICS_TOKEN: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(16).optional()),
  /** `npm run worker`: a port for its /healthz, /readyz and /metrics; unset, none is opened. */
  HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  MAIL_FROM: z.string().default('ClipScribe <no-reply@clipscribe.local>'),
  // Payments (docs/decisions/0010). Without a secret key the pricing page says buying is off.
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  /** Where stripe-node sends its calls; only for tests and stripe-mock style local servers. */
  STRIPE_API_BASE: optionalUrl,
  ...stripePriceVars(),
  // Affiliate programme (docs/decisions/0012).
  AFFILIATE_COMMISSION_PERCENT: z.coerce.number().min(0).max(100).default(30),
  AFFILIATE_WINDOW_MONTHS: z.coerce.number().int().min(1).max(120).default(12),
  AFFILIATE_HOLD_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /** Smallest payout, in minor units of the balance's currency (5000 = USD 50). */
  AFFILIATE_MIN_PAYOUT: z.coerce.number().int().min(1).default(5000),
  /** Key of the one-way hash that tells referral visitors apart without storing addresses. */
  AFFILIATE_CLICK_SECRET: z.string().min(8).default('clipscribe-referral-clicks'),
  /**
   * Outbound requests (webhooks, link imports) may reach private, loopback and link-local
   * addresses: `true` for all, or a list of addresses and CIDR ranges. Development and tests only.
   */
  ALLOW_PRIVATE_URLS: z
    .string()
    .default('false')
    .refine((v) => {
      const a = parseAllowance(v);
      return typeof a === 'boolean' || a.every(isAllowanceEntry);
    }, 'true, false, or a comma-separated list of addresses and CIDR ranges'),
  /** Seconds before each webhook retry (its length is the number of retries): Standard Webhooks' schedule. */
  WEBHOOK_RETRY_SCHEDULE: z
    .string()
    .default('5,300,1800,7200,18000,36000')
    .refine(
      (v) => v.split(',').every((s) => Number.isFinite(Number(s)) && Number(s) >= 0),
      'seconds, comma-separated',
    ),
  /** Deliveries in a row that fail after their last retry before an endpoint is turned off. */
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).default(5),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /** The yt-dlp binary for page links (optional); else `yt-dlp` on PATH, if any. */
  YT_DLP_PATH: optionalString,
  /** The longest one link import's download may take. */
  LINK_IMPORT_TIMEOUT_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(60 * 60 * 1000),
});

/** STRIPE_PRICE_<RANK>_<MONTHLY|YEARLY>: the Stripe price id that buys each rank. */
function stripePriceVars() {
  const vars: Record<string, typeof optionalString> = {};
  for (const rank of PAID_RANKS) {
    for (const interval of BILLING_INTERVALS) vars[stripePriceVar(rank, interval)] = optionalString;
  }
  return vars as Record<`STRIPE_PRICE_${string}`, typeof optionalString>;
}

export type Env = z.infer<typeof envSchema>;

/**
 * Parses the environment; throws one readable error listing every bad variable. An empty value
 * means unset (the default applies), as in `.env.example`, whose blanks are meant to be filled.
 */
export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const given = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ''));
  const parsed = envSchema.safeParse(given);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
