// The states and kinds a stored record can take, one list per column. The database refuses any
// other value (CHECK constraints built from these lists in server/db/schema.ts), and the types
// below come from the same lists, so the code, its types and the tables agree.
//
// Free-form on purpose: users.rank_name and granted_rank (an admin may name a customised rank),
// subscriptions.status (Stripe's vocabulary, stored as Stripe sends it), jobs.name (named in
// server/modules/jobs/job-map.ts; a lane claims only the names it has handlers for, so a row of
// a name this version does not know waits untouched) and webhook_deliveries.event (the
// subscribable events and the test event).

export const TRANSCRIPT_STATUSES = ['queued', 'processing', 'done', 'failed', 'canceled'] as const;
export type TranscriptStatus = (typeof TRANSCRIPT_STATUSES)[number];

/**
 * Where a transcript came from: a file upload, imported captions, or media downloaded from a
 * link (modules/link-import).
 */
export const TRANSCRIPT_SOURCES = ['upload', 'import', 'link'] as const;
export type TranscriptSource = (typeof TRANSCRIPT_SOURCES)[number];

/**
 * What a transcript says about its speakers beside its text: being identified (a job on a finished
 * transcript), or asked for but not identified — the speaker models are not available on the
 * server (`unavailable`), or identifying them failed (`failed`). Null: nothing to say.
 */
export const SPEAKER_NOTES = ['identifying', 'unavailable', 'failed'] as const;
export type SpeakerNote = (typeof SPEAKER_NOTES)[number];

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed', 'canceled'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** One-time e-mail tokens: address verification (link and code) and password reset. */
export const EMAIL_TOKEN_PURPOSES = ['verify', 'reset'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

/** An order is a payment or the refund of one. */
export const ORDER_KINDS = ['payment', 'refund'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];

/** A commission on a payment, or its reversal when that payment is refunded. */
export const COMMISSION_KINDS = ['commission', 'reversal'] as const;
export type CommissionKind = (typeof COMMISSION_KINDS)[number];

/** An affiliate's payout request: open until an admin pays or rejects it. */
export const SETTLEMENT_STATUSES = ['requested', 'paid', 'rejected'] as const;
export type SettlementStatus = (typeof SETTLEMENT_STATUSES)[number];

/** `full`: every call a key may make; `read`: GET and HEAD only. */
export const API_KEY_SCOPES = ['full', 'read'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** Why the server turned an endpoint off (null when it is on or its owner turned it off). */
export const WEBHOOK_DISABLED_REASONS = ['failures'] as const;
export type WebhookDisabledReason = (typeof WEBHOOK_DISABLED_REASONS)[number];

/** A workspace is an account's own (`personal`, one per account) or shared (`team`): decision 0027. */
export const WORKSPACE_KINDS = ['personal', 'team'] as const;
export type WorkspaceKind = (typeof WORKSPACE_KINDS)[number];

/** A member's role, lowest first: each may do what the ones before it may (decision 0027). */
export const WORKSPACE_ROLES = ['viewer', 'editor', 'admin', 'owner'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

/** The roles an invitation can carry: ownership is transferred, never invited. */
export const INVITABLE_ROLES = ['viewer', 'editor', 'admin'] as const satisfies readonly WorkspaceRole[];
export type InvitableRole = (typeof INVITABLE_ROLES)[number];

/** An invitation waits for its answer until it expires; then it was accepted, declined or revoked. */
export const INVITATION_STATUSES = ['pending', 'accepted', 'declined', 'revoked'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** What the activity of a transcript records (who did it, when): issue #26 part 4. */
export const ACTIVITY_KINDS = ['uploaded', 'edited', 'renamed', 'exported', 'shared', 'commented'] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** A redirect rule answers 301 (moved for good) or 302 (for now). */
export const REDIRECT_STATUSES = [301, 302] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

/** What the AI layer makes from a transcript (docs/decisions/0033-insights.md). */
export const INSIGHT_KINDS = ['summary', 'chapters', 'template'] as const;
export type InsightKind = (typeof INSIGHT_KINDS)[number];

/** An AI output is waiting for the language lane, being generated, made, or failed. */
export const INSIGHT_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type InsightStatus = (typeof INSIGHT_STATUSES)[number];

/** What a running AI job is doing: fetching the model, reading (sections of) the transcript, merging. */
export const INSIGHT_STAGES = ['preparing', 'reading', 'merging'] as const;
export type InsightStage = (typeof INSIGHT_STAGES)[number];

/** Who wrote a message of a conversation about a transcript (modules/ask). */
export const ASK_ROLES = ['user', 'assistant'] as const;
export type AskRole = (typeof ASK_ROLES)[number];
/** A captioned-video render (modules/render): waiting, being made, ready to download, or not. */
export const RENDER_STATUSES = ['queued', 'running', 'done', 'failed', 'canceled'] as const;
export type RenderStatus = (typeof RENDER_STATUSES)[number];

/** A translation track (modules/translation): waiting, being translated, ready, or not. */
export const TRANSLATION_STATUSES = ['queued', 'running', 'done', 'failed', 'canceled'] as const;
export type TranslationStatus = (typeof TRANSLATION_STATUSES)[number];
