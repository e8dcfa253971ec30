import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  customType,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  type AnyPgColumn,
  primaryKey,
  uniqueIndex,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import type { RankLimits } from '../../common/ranks';
import type { Segment } from '../../common/segments';
import type { Speaker } from '../../common/speakers';
import type { RenderRequest } from '../../common/render-options';
import { TRANSCRIPT_STAGES, type SpeechRegion } from '../../common/transcript-types';
import type { ToolLocale } from '../../common/tool-content';
import type { Chapter, Summary } from '../../common/insights';
import type { AskCitation } from '../../common/ask';
import {
  ACTIVITY_KINDS,
  API_KEY_SCOPES,
  ASK_ROLES,
  COMMISSION_KINDS,
  EMAIL_TOKEN_PURPOSES,
  INSIGHT_KINDS,
  INSIGHT_STAGES,
  INSIGHT_STATUSES,
  INVITABLE_ROLES,
  INVITATION_STATUSES,
  JOB_STATUSES,
  ORDER_KINDS,
  REDIRECT_STATUSES,
  RENDER_STATUSES,
  TRANSLATION_STATUSES,
  SETTLEMENT_STATUSES,
  type RedirectStatus,
  TRANSCRIPT_SOURCES,
  TRANSCRIPT_STATUSES,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOK_DISABLED_REASONS,
  WORKSPACE_KINDS,
  WORKSPACE_ROLES,
  SPEAKER_NOTES,
} from '../../common/record-states';
import { ENGINE_CHOICES } from '../../common/engines';
import { oneOf } from './checks';

// Status and kind columns take one of the values listed in common/record-states.ts: the CHECK
// constraints below are built from those lists, and so are the columns' types.

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name'),
  avatar: text('avatar'),
  passwordHash: text('password_hash'),
  emailVerified: boolean('email_verified').notNull().default(false),
  rankName: text('rank_name').notNull().default('Free'),
  language: text('language').notNull().default('en'),
  /** Referral code from the clipscribe_REF_CODE cookie at signup (affiliate attribution). */
  referralCode: text('referral_code'),
  /** The affiliate that code belongs to, when the attribution was accepted at signup. */
  referredBy: uuid('referred_by'),
  googleSub: text('google_sub').unique(),
  /** Per-account limits for Enterprise and customised ranks. */
  customLimits: jsonb('custom_limits').$type<Partial<RankLimits>>(),
  /** A rank given by an admin (scripts/admin), kept apart so a subscription cannot overwrite it. */
  grantedRank: text('granted_rank'),
  /** When the granted rank ends; null = no end. */
  grantedUntil: timestamp('granted_until', { withTimezone: true }),
  stripeCustomerId: text('stripe_customer_id').unique(),
  /** When rank_name last changed: retention after a downgrade counts from here. */
  rankChangedAt: timestamp('rank_changed_at', { withTimezone: true }),
  /** Start of the paid subscription's billing period; usage periods are months from it. */
  periodAnchor: timestamp('period_anchor', { withTimezone: true }),
  passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Opaque session tokens; only their SHA-256 hash is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

export type User = typeof users.$inferSelect;
export type Session = typeof sessions.$inferSelect;

/** One-time tokens: e-mail verification (link + 6-digit code) and password reset. Hashes only. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: EMAIL_TOKEN_PURPOSES }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    codeHash: text('code_hash'),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('email_tokens_user_idx').on(t.userId, t.purpose),
    check('email_tokens_purpose_check', oneOf(t.purpose, EMAIL_TOKEN_PURPOSES)),
  ],
);

export type EmailToken = typeof emailTokens.$inferSelect;

/**
 * Who owns the product's data (docs/decisions/0027-team-workspaces.md): every account's own
 * `personal` workspace (made by a trigger when the account is), and the `team` workspaces its
 * members share. A personal workspace has no name; pages call it "Personal" in their language.
 */
export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: WORKSPACE_KINDS }).notNull(),
    name: text('name'),
    /** The account a personal workspace belongs to; null for a team workspace. */
    personalUserId: uuid('personal_user_id')
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who created a team workspace (kept for the record; ownership is the members' roles). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('workspaces_kind_check', oneOf(t.kind, WORKSPACE_KINDS)),
    // A personal workspace names its account, a team workspace none.
    check('workspaces_personal_check', sql`(${t.kind} = 'personal') = (${t.personalUserId} is not null)`),
  ],
);

export type Workspace = typeof workspaces.$inferSelect;

/** Who belongs to a workspace, with which role; the membership every ownership check joins. */
export const workspaceMembers = pgTable(
  'workspace_members',
  {
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: WORKSPACE_ROLES }).notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.userId] }),
    index('workspace_members_user_idx').on(t.userId),
    check('workspace_members_role_check', oneOf(t.role, WORKSPACE_ROLES)),
  ],
);

export type WorkspaceMember = typeof workspaceMembers.$inferSelect;

/**
 * An invitation by e-mail. The link's token is 256 random bits of which only the SHA-256 is
 * kept; it is answered once (status leaves 'pending' in one conditional update).
 */
export const workspaceInvitations = pgTable(
  'workspace_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    /** The invited address, lowercased; only the account with this verified address may accept. */
    email: text('email').notNull(),
    role: text('role', { enum: INVITABLE_ROLES }).notNull(),
    /** The mail's language: the invitee's account's, else the one the inviter chose. */
    language: text('language').notNull().default('en'),
    tokenHash: text('token_hash').notNull().unique(),
    status: text('status', { enum: INVITATION_STATUSES }).notNull().default('pending'),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** The account that accepted or declined. */
    answeredBy: uuid('answered_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('workspace_invitations_workspace_idx').on(t.workspaceId, t.createdAt),
    index('workspace_invitations_email_idx').on(t.email),
    // One open invitation per address and workspace: sending again replaces it.
    uniqueIndex('workspace_invitations_pending_idx')
      .on(t.workspaceId, t.email)
      .where(sql`${t.status} = 'pending'`),
    check('workspace_invitations_role_check', oneOf(t.role, INVITABLE_ROLES)),
    check('workspace_invitations_status_check', oneOf(t.status, INVITATION_STATUSES)),
  ],
);

export type WorkspaceInvitation = typeof workspaceInvitations.$inferSelect;

/**
 * The workspace a row belongs to. Until every writer names it, a row inserted without one goes
 * to its creator's personal workspace (the fill trigger of migration 0013, decision 0027): the
 * insert sends NULL and the trigger replaces it before the NOT NULL constraint is checked.
 */
const workspaceColumn = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' })
    .$defaultFn(() => sql`null`);

/** Folders group a workspace's transcripts (one level); user_id is who made it. */
export const folders = pgTable(
  'folders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('folders_user_idx').on(t.userId), index('folders_workspace_idx').on(t.workspaceId)],
);

export type Folder = typeof folders.$inferSelect;

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * A transcript and its media. Segments live in one JSON array: they are read and edited as a
 * whole, and `plain_text` mirrors their text for full-text search.
 */
export const transcripts = pgTable(
  'transcripts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    /** Who uploaded or imported it. */
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    folderId: uuid('folder_id').references(() => folders.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    source: text('source', { enum: TRANSCRIPT_SOURCES }).notNull(),
    /** The link the media was downloaded from (modules/link-import), null otherwise. */
    sourceUrl: text('source_url'),
    status: text('status', { enum: TRANSCRIPT_STATUSES }).notNull(),
    progress: integer('progress').notNull().default(0),
    /** What a running job is doing (TranscriptStage), for the progress bar; null when idle. */
    stage: text('stage', { enum: TRANSCRIPT_STAGES }),
    /** Seconds of work left, estimated from the measured speed; null while unknown. */
    remainingSec: integer('remaining_sec'),
    /** Look for speech first and transcribe only it (the upload option; on by default). */
    detectSpeech: boolean('detect_speech').notNull().default(true),
    /** The stretches that were transcribed when speech was detected first; null = all of it. */
    speechRegions: jsonb('speech_regions').$type<SpeechRegion[]>(),
    /** Requested language: a Whisper code or 'auto'. */
    language: text('language').notNull().default('auto'),
    detectedLanguage: text('detected_language'),
    translate: boolean('translate').notNull().default(false),
    /** The model family asked for (common/engines.ts): 'auto' = the best for the language. */
    engineChoice: text('engine_choice', { enum: ENGINE_CHOICES }).notNull().default('auto'),
    /** The model that made the transcript ('whisper-base', 'parakeet-tdt-0.6b-v3-int8' …). */
    engine: text('engine'),
    mediaKey: text('media_key'),
    mediaName: text('media_name'),
    mediaType: text('media_type'),
    mediaSize: bigint('media_size', { mode: 'number' }),
    hasVideo: boolean('has_video').notNull().default(false),
    durationSec: doublePrecision('duration_sec'),
    segments: jsonb('segments').$type<Segment[]>().notNull().default([]),
    /** Who speaks (common/speakers): segments and words refer to these by id. */
    speakers: jsonb('speakers').$type<Speaker[]>().notNull().default([]),
    /** The upload option "Identify speakers": run speaker diarization after transcription. */
    detectSpeakers: boolean('detect_speakers').notNull().default(false),
    /** How many speakers the user expects (diarization's hint); null = find out. */
    speakerCount: integer('speaker_count'),
    /** What the page says about the speakers (common/record-states.ts SPEAKER_NOTES); null: nothing. */
    speakerNote: text('speaker_note', { enum: SPEAKER_NOTES }),
    plainText: text('plain_text').notNull().default(''),
    search: tsvector('search').generatedAlwaysAs(
      sql`to_tsvector('simple', coalesce("name", '') || ' ' || coalesce("plain_text", ''))`,
    ),
    errorCode: text('error_code'),
    errorDetail: text('error_detail'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** Who changed the text, speakers or name last, and when (the page's "last edited by"). */
    editedBy: uuid('edited_by').references((): AnyPgColumn => users.id, { onDelete: 'set null' }),
    editedAt: timestamp('edited_at', { withTimezone: true }),
  },
  (t) => [
    index('transcripts_user_created_idx').on(t.userId, t.createdAt),
    check('transcripts_engine_choice_check', oneOf(t.engineChoice, ENGINE_CHOICES)),
    index('transcripts_user_folder_idx').on(t.userId, t.folderId),
    // The list's default order (newest first, id breaking ties) read straight from the index, so
    // a page of a large workspace needs no sort; range scans on created_at use it as before.
    // (NULLS FIRST is what ORDER BY … DESC means; the planner matches it exactly.)
    index('transcripts_workspace_created_id_idx').on(
      t.workspaceId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('transcripts_workspace_folder_idx').on(t.workspaceId, t.folderId),
    index('transcripts_search_idx').using('gin', t.search),
    check('transcripts_status_check', oneOf(t.status, TRANSCRIPT_STATUSES)),
    check('transcripts_source_check', oneOf(t.source, TRANSCRIPT_SOURCES)),
    check('transcripts_stage_check', oneOf(t.stage, TRANSCRIPT_STAGES)),
    check('transcripts_speaker_note_check', oneOf(t.speakerNote, SPEAKER_NOTES)),
  ],
);

export type Transcript = typeof transcripts.$inferSelect;

/** A workspace column for tables made after workspaces: every insert names its workspace. */
const ownWorkspace = () =>
  uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' });

/**
 * A comment on a moment of a transcript (a segment, or a time range), with @mentions of members
 * (their user ids, checked against the members when written), replies (parent_id) and resolve.
 */
export const transcriptComments = pgTable(
  'transcript_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: ownWorkspace(),
    transcriptId: uuid('transcript_id')
      .notNull()
      .references(() => transcripts.id, { onDelete: 'cascade' }),
    /** The author. */
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    /** A reply names the comment it answers (one level: replies to a reply go to its parent). */
    parentId: uuid('parent_id').references((): AnyPgColumn => transcriptComments.id, { onDelete: 'cascade' }),
    segmentIndex: integer('segment_index'),
    startSec: doublePrecision('start_sec').notNull().default(0),
    endSec: doublePrecision('end_sec'),
    body: text('body').notNull(),
    mentions: jsonb('mentions').$type<string[]>().notNull().default([]),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: uuid('resolved_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('transcript_comments_transcript_idx').on(t.transcriptId, t.createdAt),
    index('transcript_comments_workspace_idx').on(t.workspaceId),
  ],
);

export type TranscriptComment = typeof transcriptComments.$inferSelect;

/** What happened to a transcript, by whom and when (uploaded, edited, exported, shared …). */
export const transcriptActivity = pgTable(
  'transcript_activity',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: ownWorkspace(),
    transcriptId: uuid('transcript_id')
      .notNull()
      .references(() => transcripts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    kind: text('kind', { enum: ACTIVITY_KINDS }).notNull(),
    /** A few words of what: the export's format, the edit's operation, the source of an upload. */
    detail: jsonb('detail').$type<Record<string, string | number | boolean>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('transcript_activity_transcript_idx').on(t.transcriptId, t.createdAt),
    index('transcript_activity_workspace_idx').on(t.workspaceId),
    check('transcript_activity_kind_check', oneOf(t.kind, ACTIVITY_KINDS)),
  ],
);

export type TranscriptActivity = typeof transcriptActivity.$inferSelect;

/**
 * Durable job rows for the in-process runner (server/modules/jobs/job-map.ts names the jobs): a
 * claimed job carries a lease (locked_by / locked_until) that a crashed process stops renewing,
 * so another run takes it up again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull().default('transcribe'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** What the job is about (a transcript id, a model name); cancel(name, key) reaches it. */
    key: text('key'),
    /** At most one waiting or running job of this name and key (jobs_once_idx). */
    once: boolean('once').notNull().default(false),
    /** A recurring job: when it ends, the next run is queued this many milliseconds later. */
    repeatMs: integer('repeat_ms'),
    /** Transcription jobs go with their transcript. */
    transcriptId: uuid('transcript_id').references(() => transcripts.id, { onDelete: 'cascade' }),
    status: text('status', { enum: JOB_STATUSES }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** The request that queued the job: its id is in every log line the job writes. */
    requestId: text('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_claim_idx').on(t.status, t.runAfter),
    index('jobs_transcript_idx').on(t.transcriptId),
    index('jobs_key_idx').on(t.name, t.key),
    uniqueIndex('jobs_once_idx')
      .on(t.name, t.key)
      .where(sql`${t.once} and ${t.status} in ('queued', 'running')`),
    check('jobs_status_check', oneOf(t.status, JOB_STATUSES)),
  ],
);

export type Job = typeof jobs.$inferSelect;

/**
 * Seconds transcribed, charged once per transcript on success. No foreign key to transcripts:
 * deleting a transcript does not give its minutes back.
 */
export const usageRecords = pgTable(
  'usage_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Minutes are pooled per workspace; user_id is whose transcript used them. */
    workspaceId: workspaceColumn(),
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    transcriptId: uuid('transcript_id').notNull().unique(),
    seconds: doublePrecision('seconds').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('usage_user_created_idx').on(t.userId, t.createdAt),
    index('usage_workspace_created_idx').on(t.workspaceId, t.createdAt),
  ],
);

/**
 * Public links to one finished transcript. The id is the secret (128 random bits, base64url):
 * it is the lookup key, and a link stops working when revoked, expired or its transcript goes.
 */
export const shareLinks = pgTable(
  'share_links',
  {
    id: text('id').primaryKey(),
    transcriptId: uuid('transcript_id')
      .notNull()
      .references(() => transcripts.id, { onDelete: 'cascade' }),
    /** The transcript's workspace: its plan's share_links limit counts these. */
    workspaceId: workspaceColumn(),
    /** Who made the link. */
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    allowMedia: boolean('allow_media').notNull().default(false),
    allowDownload: boolean('allow_download').notNull().default(false),
    /** The transcript's summary and chapters are shown too, when they were made. */
    includeInsights: boolean('include_insights').notNull().default(false),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    views: integer('views').notNull().default(0),
  },
  (t) => [
    index('share_links_transcript_idx').on(t.transcriptId, t.createdAt),
    index('share_links_user_idx').on(t.userId),
    index('share_links_workspace_idx').on(t.workspaceId),
  ],
);

export type ShareLink = typeof shareLinks.$inferSelect;

/**
 * Stripe subscriptions as last seen. `eventAt` is the `created` second of the newest event
 * applied, so an older event arriving late cannot undo a newer one.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    customerId: text('customer_id').notNull(),
    status: text('status').notNull(),
    priceId: text('price_id'),
    /** The rank the price buys; null for a price this deployment does not know. */
    rank: text('rank'),
    interval: text('interval'),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /**
     * The subscription item's quantity: the seats bought for the holder's team workspaces
     * (decision 0043), chosen in Checkout, changed by a subscription update or the Portal.
     */
    quantity: integer('quantity').notNull().default(1),
    /** The latest invoice failed and Stripe is retrying; cleared when one is paid. */
    paymentFailed: boolean('payment_failed').notNull().default(false),
    eventAt: bigint('event_at', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('subscriptions_user_idx').on(t.userId)],
);

export type Subscription = typeof subscriptions.$inferSelect;

/** Stripe events already applied: the primary key makes a redelivered event a no-op. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  processedAt: timestamp('processed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every payment and refund, in integer minor units of its currency. A refund points at its
 * payment; the affiliate programme computes commissions from these rows. Users may delete their
 * account, the accounting record stays (user_id set null, e-mail kept).
 */
export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    kind: text('kind', { enum: ORDER_KINDS }).notNull(),
    amount: integer('amount').notNull(),
    tax: integer('tax').notNull().default(0),
    currency: text('currency').notNull(),
    rank: text('rank'),
    interval: text('interval'),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    stripeInvoiceId: text('stripe_invoice_id').unique(),
    stripeSubscriptionId: text('stripe_subscription_id'),
    stripePaymentIntentId: text('stripe_payment_intent_id'),
    stripeChargeId: text('stripe_charge_id'),
    /** Refunds: charge id and cumulative refunded amount, which names one refund step exactly. */
    stripeRefundKey: text('stripe_refund_key').unique(),
    paymentOrderId: uuid('payment_order_id'),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('orders_user_idx').on(t.userId, t.paidAt),
    index('orders_payment_intent_idx').on(t.stripePaymentIntentId),
    index('orders_charge_idx').on(t.stripeChargeId),
    check('orders_kind_check', oneOf(t.kind, ORDER_KINDS)),
  ],
);

export type Order = typeof orders.$inferSelect;

/** /tools landing pages, one row per page and language (content/tools/*.json, seeded on first start). */
export const seoPages = pgTable(
  'seo_pages',
  {
    slug: text('slug').notNull(),
    lang: text('lang').notNull(),
    group: text('group').notNull(),
    related: jsonb('related').$type<string[]>().notNull(),
    content: jsonb('content').$type<ToolLocale>().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.slug, t.lang] }), index('seo_pages_lang_idx').on(t.lang)],
);

export type SeoPage = typeof seoPages.$inferSelect;

/** Redirects by exact path, looked up before a page renders; chains and loops are refused on save. */
export const routeRules = pgTable(
  'route_rules',
  {
    path: text('path').primaryKey(),
    target: text('target').notNull(),
    status: integer('status').$type<RedirectStatus>().notNull().default(301),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('route_rules_status_check', oneOf(t.status, REDIRECT_STATUSES))],
);

export type RouteRule = typeof routeRules.$inferSelect;

/** Affiliates: a user who accepted the programme terms. */
export const affiliates = pgTable('affiliates', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  website: text('website'),
  audience: text('audience'),
  channel: text('channel'),
  /** Payout account (PayPal e-mail); payouts need one. */
  paypalEmail: text('paypal_email'),
  termsAcceptedAt: timestamp('terms_accepted_at', { withTimezone: true }).notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type Affiliate = typeof affiliates.$inferSelect;

/** An affiliate's referral codes (one per campaign if they like); codes are uppercase. */
export const affiliateCodes = pgTable(
  'affiliate_codes',
  {
    code: text('code').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => affiliates.userId, { onDelete: 'cascade' }),
    label: text('label'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('affiliate_codes_user_idx').on(t.userId)],
);

/** Counted visits with ?ref: one per visitor (a keyed hash, never the address) per code per 24 h. */
export const referralClicks = pgTable(
  'referral_clicks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code')
      .notNull()
      .references(() => affiliateCodes.code, { onDelete: 'cascade' }),
    visitor: text('visitor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('referral_clicks_code_visitor_idx').on(t.code, t.visitor, t.createdAt)],
);

/** A payout request of an affiliate's available balance in one currency. */
export const settlements = pgTable(
  'settlements',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    affiliateId: uuid('affiliate_id')
      .notNull()
      .references(() => affiliates.userId, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: SETTLEMENT_STATUSES }).notNull(),
    paypalEmail: text('paypal_email').notNull(),
    paypalTransactionId: text('paypal_transaction_id'),
    reason: text('reason'),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    index('settlements_affiliate_idx').on(t.affiliateId, t.requestedAt),
    // At most one open request per affiliate and currency: a balance cannot be requested twice.
    uniqueIndex('settlements_one_open_idx')
      .on(t.affiliateId, t.currency)
      .where(sql`${t.status} = 'requested'`),
    check('settlements_status_check', oneOf(t.status, SETTLEMENT_STATUSES)),
  ],
);

export type Settlement = typeof settlements.$inferSelect;

/**
 * Commissions on referred customers' payments (positive) and their reversals on refunds
 * (negative), in the payment's currency. One row per order at most. A row belongs to a payout
 * once settlement_id is set; it is available from available_at (the holding period's end).
 */
export const commissions = pgTable(
  'commissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    affiliateId: uuid('affiliate_id')
      .notNull()
      .references(() => affiliates.userId, { onDelete: 'cascade' }),
    referredUserId: uuid('referred_user_id'),
    orderId: uuid('order_id')
      .notNull()
      .unique()
      .references(() => orders.id),
    code: text('code'),
    kind: text('kind', { enum: COMMISSION_KINDS }).notNull(),
    amount: integer('amount').notNull(),
    currency: text('currency').notNull(),
    availableAt: timestamp('available_at', { withTimezone: true }).notNull(),
    settlementId: uuid('settlement_id').references(() => settlements.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('commissions_affiliate_idx').on(t.affiliateId, t.createdAt),
    check('commissions_kind_check', oneOf(t.kind, COMMISSION_KINDS)),
  ],
);

export type Commission = typeof commissions.$inferSelect;

/**
 * Keys for programs using the API (docs/decisions/0018-api-keys-webhooks.md). Only the SHA-256
 * of a key is stored; its first characters (`prefix`) let the owner tell keys apart.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The one workspace the key acts in, with its holder's role there. */
    workspaceId: workspaceColumn(),
    /** The member holding the key: it stops working when they leave the workspace. */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `full`: every call a key may make; `read`: GET and HEAD only. */
    scope: text('scope', { enum: API_KEY_SCOPES }).notNull().default('full'),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [
    index('api_keys_user_idx').on(t.userId),
    index('api_keys_workspace_idx').on(t.workspaceId),
    check('api_keys_scope_check', oneOf(t.scope, API_KEY_SCOPES)),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;

/** Where a user's webhooks go (Standard Webhooks: one signing secret per endpoint). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Events of this workspace's transcripts are sent here. */
    workspaceId: workspaceColumn(),
    /** Who added the endpoint. */
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    /** The events sent here (common/webhook-events.ts). */
    events: jsonb('events').$type<string[]>().notNull(),
    /** `whsec_` + base64 key; kept readable because every delivery is signed with it. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation: deliveries carry its signature too until the time below. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    enabled: boolean('enabled').notNull().default(true),
    /** Why it was turned off by the server (`failures`), null when the owner did it or it is on. */
    disabledReason: text('disabled_reason', { enum: WEBHOOK_DISABLED_REASONS }),
    /** Deliveries in a row that failed after their last retry; a success sets it back to 0. */
    failureCount: integer('failure_count').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('webhook_endpoints_user_idx').on(t.userId),
    index('webhook_endpoints_workspace_idx').on(t.workspaceId),
    check('webhook_endpoints_disabled_reason_check', oneOf(t.disabledReason, WEBHOOK_DISABLED_REASONS)),
  ],
);

export type WebhookEndpoint = typeof webhookEndpoints.$inferSelect;

export interface WebhookAttempt {
  at: string;
  status: number | null;
  error: string | null;
  ms: number;
}

/** One event for one endpoint, with its attempts: the delivery log of the profile page. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** The `webhook-id` header: `msg_` + random, the same on every retry. */
    id: text('id').primaryKey(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: jsonb('attempts').$type<WebhookAttempt[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    check('webhook_deliveries_status_check', oneOf(t.status, WEBHOOK_DELIVERY_STATUSES)),
  ],
);

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

/**
 * Captioned-video renders (modules/render, docs/decisions/0029-captioned-video.md): one row per
 * asked-for MP4 of a transcript, with the options it was asked with, its progress and its file.
 * The workspace is the transcript's (render minutes are pooled per workspace); user_id is who asked.
 */
export const renderJobs = pgTable(
  'render_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    transcriptId: uuid('transcript_id')
      .notNull()
      .references(() => transcripts.id, { onDelete: 'cascade' }),
    options: jsonb('options').$type<RenderRequest>().notNull(),
    status: text('status', { enum: RENDER_STATUSES }).notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    /** Seconds of media rendered: what the render charges against render_minutes_per_month. */
    durationSec: doublePrecision('duration_sec').notNull(),
    /** The plan's cap on the output's short side when it was asked for. */
    maxResolution: integer('max_resolution').notNull(),
    width: integer('width'),
    height: integer('height'),
    /** The plan's "Made with" mark is drawn (Free). */
    watermark: boolean('watermark').notNull().default(false),
    outputKey: text('output_key'),
    outputSize: bigint('output_size', { mode: 'number' }),
    /** Why it failed, as an errors.render.* reason. */
    errorCode: text('error_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('render_jobs_transcript_idx').on(t.transcriptId, t.createdAt),
    index('render_jobs_workspace_created_idx').on(t.workspaceId, t.createdAt),
    check('render_jobs_status_check', oneOf(t.status, RENDER_STATUSES)),
  ],
);

export type RenderJob = typeof renderJobs.$inferSelect;

/**
 * A transcript translated into one language (modules/translation, docs/decisions/0030-translation-tracks.md):
 * its own text per segment of the transcript (same timings, same speakers), its own revision.
 */
export const translationTracks = pgTable(
  'translation_tracks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    transcriptId: uuid('transcript_id')
      .notNull()
      .references(() => transcripts.id, { onDelete: 'cascade' }),
    /** A code of common/translation-languages.ts. */
    language: text('language').notNull(),
    status: text('status', { enum: TRANSLATION_STATUSES }).notNull().default('queued'),
    progress: integer('progress').notNull().default(0),
    /** One text per segment of the transcript, in order; '' where not translated yet. */
    texts: jsonb('texts').$type<string[]>().notNull().default([]),
    /** Raised by every edit (optimistic concurrency, like the transcript's). */
    revision: integer('revision').notNull().default(0),
    /** Characters of source text charged against translation_chars_per_month. */
    chars: integer('chars').notNull().default(0),
    /** The transcript's updated_at when it was translated: a later edit of the original shows. */
    sourceUpdatedAt: timestamp('source_updated_at', { withTimezone: true }),
    model: text('model'),
    errorCode: text('error_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('translation_tracks_transcript_language_idx').on(t.transcriptId, t.language),
    index('translation_tracks_workspace_created_idx').on(t.workspaceId, t.createdAt),
    check('translation_tracks_status_check', oneOf(t.status, TRANSLATION_STATUSES)),
  ],
);

export type TranslationTrack = typeof translationTracks.$inferSelect;

/** A workspace's glossary for translations: a term kept as it is (target null) or always translated one way. */
export const glossaryTerms = pgTable(
  'glossary_terms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: uuid('workspace_id')
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    source: text('source').notNull(),
    target: text('target'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('glossary_terms_workspace_source_idx').on(t.workspaceId, t.source)],
);

export type GlossaryTerm = typeof glossaryTerms.$inferSelect;

/** What an AI output holds, by kind (common/insights.ts). */
export type InsightContent = { summary: Summary } | { chapters: Chapter[] } | { markdown: string };

/**
 * AI outputs of a transcript (docs/decisions/0033-insights.md): its summary, its chapters, a
 * template's result. One row per kind (and template), made again in place; `source_hash` is the
 * transcript revision it was made from (a hash of the segments), so an edit shows it stale.
 */
export const insights = pgTable(
  'insights',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    /** Who asked for it last. */
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    transcriptId: uuid('transcript_id')
      .notNull()
      .references(() => transcripts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: INSIGHT_KINDS }).notNull(),
    /** Which template made it ('' for a summary or chapters). */
    variant: text('variant').notNull().default(''),
    /** An interface language or 'transcript' (common/insights.ts INSIGHT_LANGUAGES). */
    language: text('language').notNull(),
    status: text('status', { enum: INSIGHT_STATUSES }).notNull(),
    progress: integer('progress').notNull().default(0),
    stage: text('stage', { enum: INSIGHT_STAGES }),
    content: jsonb('content').$type<InsightContent>(),
    sourceHash: text('source_hash').notNull(),
    /** The AI action charged for the run under way, given back if it fails. */
    actionId: uuid('action_id'),
    /** What produced it (the local model's name or the endpoint's model). */
    model: text('model'),
    errorCode: text('error_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('insights_transcript_kind_idx').on(t.transcriptId, t.kind, t.variant),
    index('insights_workspace_idx').on(t.workspaceId),
    check('insights_kind_check', oneOf(t.kind, INSIGHT_KINDS)),
    check('insights_status_check', oneOf(t.status, INSIGHT_STATUSES)),
    check('insights_stage_check', oneOf(t.stage, INSIGHT_STAGES)),
  ],
);

export type Insight = typeof insights.$inferSelect;

/**
 * Conversations about a transcript, or about the transcripts of a folder (exactly one of the two),
 * one per person: a row per question and per answer (modules/ask, decision 0035).
 */
export const askMessages = pgTable(
  'ask_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    transcriptId: uuid('transcript_id').references(() => transcripts.id, { onDelete: 'cascade' }),
    folderId: uuid('folder_id').references(() => folders.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ASK_ROLES }).notNull(),
    /** The question, or the answer with `[k]` marks for its citations (common/ask.ts). */
    content: text('content').notNull().default(''),
    citations: jsonb('citations').$type<AskCitation[]>().notNull().default([]),
    status: text('status', { enum: INSIGHT_STATUSES }).notNull(),
    /** An answer: whether the material held it. */
    found: boolean('found'),
    /** The AI action charged for the answer under way, given back if it fails. */
    actionId: uuid('action_id'),
    model: text('model'),
    errorCode: text('error_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ask_messages_transcript_user_idx').on(t.transcriptId, t.userId, t.createdAt),
    index('ask_messages_folder_user_idx').on(t.folderId, t.userId, t.createdAt),
    index('ask_messages_workspace_idx').on(t.workspaceId),
    check('ask_messages_role_check', oneOf(t.role, ASK_ROLES)),
    check('ask_messages_status_check', oneOf(t.status, INSIGHT_STATUSES)),
    check('ask_messages_scope_check', sql`(${t.transcriptId} is null) <> (${t.folderId} is null)`),
  ],
);

export type AskMessage = typeof askMessages.$inferSelect;

/**
 * A workspace's own AI templates (docs/decisions/0037-ai-templates.md): instructions a member wrote
 * ("show notes", "meeting minutes" …), run on any of its transcripts. The output is an insight of
 * kind `template` whose variant is the template's id.
 */
export const aiTemplates = pgTable(
  'ai_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    /** Who wrote it (kept when they leave: the template stays the workspace's). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    instructions: text('instructions').notNull(),
    /** The output language (common/insights.ts INSIGHT_LANGUAGES); null: the runner's interface language. */
    language: text('language'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_templates_workspace_idx').on(t.workspaceId, t.createdAt)],
);

export type AiTemplate = typeof aiTemplates.$inferSelect;

/**
 * AI actions charged against the plan's ai_actions_per_month, one row per generation or answer.
 * No foreign key to transcripts: deleting one does not give its actions back.
 */
export const aiActions = pgTable(
  'ai_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    workspaceId: workspaceColumn(),
    userId: uuid('user_id')
      .references(() => users.id, { onDelete: 'set null' }),
    transcriptId: uuid('transcript_id'),
    kind: text('kind').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_actions_workspace_created_idx').on(t.workspaceId, t.createdAt)],
);
