// Every error code the API answers with, in one list: the server throws these and the UI reads
// them. A code is an HTTP status (400, 401, …) or five digits whose first three digits are the
// HTTP status it is sent with and whose last two number the reason (40301 → HTTP 403).
// The message keys that go with them (errors.<area>.*) are translated in app/locales.

/** Refusals any call can meet. */
export const ErrorCode = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  /** A dependency (database, queue, object store) is away for a moment; Retry-After says when to try again. */
  UNAVAILABLE: 503,
  /** The server's disk is full; Retry-After says when to try again. */
  OUT_OF_SPACE: 507,
} as const;

/** Accounts: sign-up, login, verification, password reset, Google sign-in. */
export const AuthCode = {
  INVALID_TOKEN: 40001,
  INVALID_CODE: 40002,
  NO_PASSWORD: 40003,
  INVALID_CREDENTIALS: 40101,
  WRONG_PASSWORD: 40102,
  GOOGLE_FAILED: 40103,
  /** The address is not verified yet; the login page offers to send the code again. */
  UNVERIFIED: 40301,
  COMMON_PASSWORD: 42201,
  /** Too many attempts; data.retry_after says how many seconds to wait. */
  RATE_LIMITED: 42901,
  GOOGLE_NOT_CONFIGURED: 50301,
} as const;

/** Resumable uploads (tus). */
export const UploadCode = {
  LENGTH_REQUIRED: 40004,
  EMPTY_FILE: 42203,
} as const;

/** What a plan's limits refuse when a file is uploaded or a transcript is created. */
export const AdmissionCode = {
  FILE_TOO_LARGE: 41301,
  DURATION_TOO_LONG: 40302,
  QUOTA_EXCEEDED: 40303,
  TOO_MANY_JOBS: 42902,
} as const;

export const TranscriptCode = {
  NOT_FOUND: 40404,
  UPLOAD_NOT_FOUND: 40405,
  NO_MEDIA: 40407,
  NOT_EDITABLE: 40903,
  NOT_RETRYABLE: 40904,
  NOT_CANCELABLE: 40905,
  CAPTIONS_INVALID: 42204,
  NOT_MEDIA: 42205,
  BAD_EDIT: 42206,
  /** A segment's start/end set by hand: out of order, overlapping a neighbour, past the media. */
  BAD_TIME: 42208,
} as const;

/** Identifying speakers on a finished transcript. */
export const SpeakerCode = {
  /** This server's engine cannot identify speakers (no local diarization). */
  UNAVAILABLE: 40941,
  /** Not a finished transcript with media, or its speakers are being identified already. */
  NOT_READY: 40942,
} as const;

export const FolderCode = {
  TOO_MANY: 40307,
  NOT_FOUND: 40406,
  NAME_TAKEN: 40906,
} as const;

export const ExportCode = {
  FORMAT_NOT_IN_PLAN: 40304,
  NOT_READY: 40907,
} as const;

export const ShareCode = {
  LIMIT_REACHED: 40305,
  NOT_FOUND: 40408,
  NOT_READY: 40908,
  BAD_EXPIRY: 42207,
} as const;

export const BillingCode = {
  BAD_SIGNATURE: 40011,
  NO_CUSTOMER: 40412,
  PLAN_NOT_FOR_SALE: 40413,
  /** Changing seats with no live subscription to change (decision 0043). */
  NO_SUBSCRIPTION: 40414,
  ALREADY_SUBSCRIBED: 40911,
  /** Seats below the members and open invitations, or above the plan's; data.min, data.max. */
  SEATS_OUT_OF_RANGE: 42211,
  NOT_READY: 40912,
  STRIPE_UNAVAILABLE: 50211,
  NOT_CONFIGURED: 50311,
} as const;

export const AffiliateCode = {
  BELOW_MINIMUM: 40331,
  NO_PAYOUT_ACCOUNT: 40332,
  TOO_MANY_CODES: 40333,
  /** The user has not joined the programme (yet): the affiliate pages offer to apply. */
  NOT_AFFILIATE: 40431,
  CODE_TAKEN: 40931,
  ALREADY_AFFILIATE: 40932,
  PAYOUT_OPEN: 40933,
  TERMS_REQUIRED: 42231,
} as const;

/** The public /tools pages. */
export const SeoCode = {
  PAGE_NOT_FOUND: 40421,
} as const;

/** API keys (docs/decisions/0018-api-keys-webhooks.md). */
export const ApiKeyCode = {
  /** A key may not call this (account, billing and key management; writes with a read key). */
  NOT_ALLOWED: 40341,
  TOO_MANY: 40342,
  NOT_FOUND: 40441,
  /** The key's requests per minute are spent; data.retry_after says how many seconds to wait. */
  RATE_LIMITED: 42941,
} as const;

/** Webhook endpoints and their deliveries. */
export const WebhookCode = {
  TOO_MANY: 40343,
  NOT_FOUND: 40442,
  /** The address is not one deliveries may go to (scheme, private network). */
  BAD_URL: 42241,
} as const;

/** Imports from a link (modules/link-import). */
export const LinkCode = {
  /** Not an http(s) address, or credentials in it. */
  BAD_URL: 42251,
  /**
   * The host is (or resolves to) anything but a public address, or does not resolve: one answer
   * for both, so nobody learns which internal names exist (42253 is retired).
   */
  BLOCKED: 42252,
} as const;

/** Workspaces, members and invitations (docs/decisions/0027-team-workspaces.md). */
export const WorkspaceCode = {
  /** The caller's role does not allow this; data.role is the role, data.needed the one it takes. */
  FORBIDDEN: 40361,
  /** An API key acts in its own workspace only: X-Workspace named another. */
  KEY_WORKSPACE: 40362,
  /** Members and open invitations already fill the plan's seats; data.seats, data.rank to move to. */
  SEATS_FULL: 40363,
  /** Too many team workspaces for one account. */
  TOO_MANY: 40364,
  /** The invitation is not for the signed-in account's (verified) address. */
  INVITATION_NOT_YOURS: 40365,
  /** Personal workspaces keep one member: no invitations, no leaving, no deleting. */
  PERSONAL: 40366,
  NOT_FOUND: 40461,
  MEMBER_NOT_FOUND: 40462,
  /** Unknown, used, declined, revoked or expired: one answer for every invitation link that fails. */
  INVITATION_INVALID: 40463,
  ALREADY_MEMBER: 40961,
  /** The workspace still has a live subscription: cancel it first. */
  HAS_SUBSCRIPTION: 40962,
  /** Deleting an account that is the only owner of a team with other members; data.workspace names it. */
  SOLE_OWNER: 40963,
} as const;

/** Summaries, chapters, answers and templates (docs/decisions/0033-insights.md). */
export const InsightCode = {
  /** The plan's AI actions for this month are spent; data.limit, data.rank to move to. */
  QUOTA_EXCEEDED: 40391,
  NOT_FOUND: 40491,
  /** The transcript has no text yet (still transcribing, failed, or empty). */
  NOT_READY: 40991,
} as const;

/** Questions about a transcript or a folder (modules/ask). */
export const AskCode = {
  /** An answer to this conversation is still on its way. */
  BUSY: 40996,
  /** The folder holds no finished transcript with text. */
  FOLDER_EMPTY: 40997,
} as const;

/** A workspace's AI templates (docs/decisions/0037-ai-templates.md). */
export const TemplateCode = {
  NOT_FOUND: 40497,
  /** The workspace keeps MAX_TEMPLATES already; data.limit. */
  LIMIT_REACHED: 40998,
} as const;

/** Comments on a transcript (issue #26 part 4). */
export const CommentCode = {
  NOT_FOUND: 40492,
  /** The segment or time range is not in the transcript. */
  BAD_MOMENT: 42291,
} as const;

/** Captioned-video renders (modules/render, docs/decisions/0029-captioned-video.md). */
export const RenderCode = {
  /** Render minutes of the month used up; data.minutes_left. */
  QUOTA_EXCEEDED: 40371,
  /** Longer than one render may be; data.limit_minutes. */
  TOO_LONG: 40372,
  NOT_FOUND: 40471,
  /** The translation track asked for does not exist. */
  TRACK_NOT_FOUND: 40472,
  /** A render asks for the workspace's background picture and there is none. */
  NO_BACKGROUND: 40473,
  /** A background picture wider or taller than RENDER_BACKGROUND_MAX_SIDE; data.max_pixels. */
  BACKGROUND_TOO_BIG: 42273,
  /** The uploaded background is not one still PNG, JPEG or WebP picture. */
  BACKGROUND_INVALID: 42272,
  /** Already finished, failed or canceled. */
  NOT_CANCELABLE: 40971,
  /** The file is asked for before the render is done. */
  NOT_DONE: 40972,
  /** A render of this transcript is already waiting or running. */
  BUSY: 40973,
  /** The part asked for lies outside the media. */
  BAD_RANGE: 42271,
} as const;

/** Translation tracks (modules/translation, docs/decisions/0030-translation-tracks.md). */
export const TranslationCode = {
  /** Translation characters of the month used up; data.chars_left. */
  QUOTA_EXCEEDED: 40381,
  NOT_FOUND: 40481,
  /** A translation into this language is already waiting or running. */
  BUSY: 40981,
  /** The track changed since the editor loaded it (its revision). */
  EDIT_CONFLICT: 40982,
  /** Edited or translated again before it is done. */
  NOT_READY: 40983,
  BAD_LANGUAGE: 42281,
  /** A segment index that the transcript does not have. */
  BAD_SEGMENT: 42282,
} as const;

/** Every list above, by area (the test keeps codes unique across them). */
export const ERROR_CODES = {
  ErrorCode,
  AuthCode,
  UploadCode,
  AdmissionCode,
  TranscriptCode,
  SpeakerCode,
  FolderCode,
  ExportCode,
  ShareCode,
  BillingCode,
  AffiliateCode,
  SeoCode,
  ApiKeyCode,
  WebhookCode,
  LinkCode,
  WorkspaceCode,
  InsightCode,
  AskCode,
  TemplateCode,
  CommentCode,
  RenderCode,
  TranslationCode,
} as const;

/** Refusals a better plan would lift: the UI offers a way to /pricing with them. */
export const PLAN_LIMIT_CODES: readonly number[] = [
  ...Object.values(AdmissionCode),
  ExportCode.FORMAT_NOT_IN_PLAN,
  ShareCode.LIMIT_REACHED,
  WorkspaceCode.SEATS_FULL,
  InsightCode.QUOTA_EXCEEDED,
  RenderCode.QUOTA_EXCEEDED,
  TranslationCode.QUOTA_EXCEEDED,
];

export function isPlanLimit(code: number): boolean {
  return PLAN_LIMIT_CODES.includes(code);
}

/**
 * The way a refusal offers: 'seats' — the workspace's seats control, when its seats are bought
 * through Stripe (more are added there, or in the Portal); 'plans' — /pricing for another plan
 * limit; null — none.
 */
export function planLimitAction(code: number, data: unknown): 'seats' | 'plans' | null {
  if (!isPlanLimit(code)) return null;
  const d = (data ?? {}) as { add_seats?: unknown; billed?: unknown };
  if (code === WorkspaceCode.SEATS_FULL && (d.add_seats === true || d.billed === true)) return 'seats';
  return 'plans';
}

/** The HTTP status a code is sent with: itself, or the first three digits of a 5-digit code. */
export function httpStatusOf(code: number): number {
  if (code >= 400 && code < 600) return code;
  if (code >= 10000 && code < 100000) {
    const status = Math.floor(code / 100);
    if (status >= 400 && status < 600) return status;
  }
  return 400;
}
