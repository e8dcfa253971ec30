import { madeChapters, madeSummary } from '../insights/made';
import { randomBytes } from 'node:crypto';
import { and, asc, count, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { limitsFor, type ExportFormat } from '../../../common/ranks';
import {
  shareLinks,
  transcripts,
  translationTracks,
  workspaces,
  type ShareLink,
  type Transcript,
  type User,
} from '../../db/schema';
import { trackSource } from '../translation/export';
import type { Actor } from '../workspaces/actor';
import { recordActivity } from '../transcription/activity';
import { ShareCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import type { TranscriptionDeps } from '../transcription/deps';
import { ownTranscript } from '../transcription/ownership';
import { planLimits } from '../workspaces/plan';
import { SHARE_ID_RE, type SharedTranscriptJson } from '../../../common/transcript-types';
import { UUID_RE } from '../../../common/validators';
import { assertFormatAllowed, buildExport, type ExportFile, type ExportOptions } from '../exports/build';
import { exportSource } from '../exports/transcripts';
import { sharedTranscriptJson } from './payload';

/** 16 random bytes = 128 bits, the whole secret of a link. */
const SHARE_ID_BYTES = 16;

/** Every bad link answers the same, so a visitor never learns which part was wrong. */
export const shareNotFound = () => new ApiError(ShareCode.NOT_FOUND, 'errors.shares.notFound');

export function newShareId(): string {
  return randomBytes(SHARE_ID_BYTES).toString('base64url');
}

/** The latest expiry a link may have: one calendar year from now. */
export function maxExpiry(now: Date): Date {
  const max = new Date(now);
  max.setUTCFullYear(max.getUTCFullYear() + 1);
  return max;
}

const activeAt = (now: Date) =>
  and(isNull(shareLinks.revokedAt), or(isNull(shareLinks.expiresAt), gt(shareLinks.expiresAt, now)))!;

export interface CreateShareInput {
  expiresAt: Date | null;
  allowMedia: boolean;
  allowDownload: boolean;
  includeInsights: boolean;
}

/**
 * A new link to a finished transcript the actor may share. The per-rank limit counts the
 * creator's active links (not revoked, not expired) across all transcripts.
 */
export async function createShare(
  deps: TranscriptionDeps,
  actor: Actor,
  transcriptId: string,
  input: CreateShareInput,
): Promise<ShareLink> {
  const now = deps.now();
  const { user } = actor;
  const row = await ownTranscript(deps, actor, transcriptId, 'transcript.share');
  if (row.status !== 'done') throw new ApiError(ShareCode.NOT_READY, 'errors.shares.notReady');
  if (input.expiresAt && (input.expiresAt <= now || input.expiresAt > maxExpiry(now))) {
    throw new ApiError(ShareCode.BAD_EXPIRY, 'errors.shares.badExpiry', {
      fields: { expires_at: 'errors.shares.badExpiry' },
    });
  }
  // The workspace's plan and its links, whoever made them (pooled per workspace).
  const plan = await planLimits(deps.db, row.workspaceId);
  const limit = limitsFor(plan.rankName, plan.customLimits).share_links;
  return deps.db.transaction(async (tx) => {
    // Locking the workspace row serialises concurrent creates, so two at once cannot pass the limit.
    await tx
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(eq(workspaces.id, row.workspaceId))
      .for('update');
    if (limit !== null) {
      const [active] = await tx
        .select({ n: count() })
        .from(shareLinks)
        .where(and(eq(shareLinks.workspaceId, row.workspaceId), activeAt(now)));
      if ((active?.n ?? 0) >= limit) {
        throw new ApiError(ShareCode.LIMIT_REACHED, 'errors.shares.limitReached', { limit });
      }
    }
    const [created] = await tx
      .insert(shareLinks)
      .values({
        id: newShareId(),
        transcriptId: row.id,
        workspaceId: row.workspaceId,
        userId: user.id,
        expiresAt: input.expiresAt,
        // Media can only be shared when there is some.
        allowMedia: input.allowMedia && !!row.mediaKey,
        allowDownload: input.allowDownload,
        includeInsights: input.includeInsights,
        createdAt: now,
      })
      .returning();
    await recordActivity(
      tx,
      {
        workspaceId: row.workspaceId,
        transcriptId: row.id,
        userId: user.id,
        kind: 'shared',
        detail: { media: created!.allowMedia, download: created!.allowDownload },
      },
      now,
    );
    return created!;
  });
}

/** Every link of one transcript (revoked and expired ones too, whoever made them), newest first. */
export async function listShares(deps: TranscriptionDeps, actor: Actor, transcriptId: string) {
  const row = await ownTranscript(deps, actor, transcriptId, 'transcript.share');
  return deps.db
    .select()
    .from(shareLinks)
    .where(and(eq(shareLinks.transcriptId, transcriptId), eq(shareLinks.workspaceId, row.workspaceId)))
    .orderBy(desc(shareLinks.createdAt), desc(shareLinks.id));
}

/** Revokes a link at once; revoking twice keeps the first time. */
export async function revokeShare(
  deps: TranscriptionDeps,
  actor: Actor,
  transcriptId: string,
  shareId: string,
): Promise<ShareLink> {
  const row = await ownTranscript(deps, actor, transcriptId, 'transcript.share');
  const mine = and(
    eq(shareLinks.id, shareId),
    eq(shareLinks.transcriptId, transcriptId),
    eq(shareLinks.workspaceId, row.workspaceId),
  );
  const [revoked] = await deps.db
    .update(shareLinks)
    .set({ revokedAt: deps.now() })
    .where(and(mine, isNull(shareLinks.revokedAt)))
    .returning();
  if (revoked) return revoked;
  const [existing] = await deps.db.select().from(shareLinks).where(mine);
  if (!existing) throw shareNotFound();
  return existing;
}

/**
 * Changes what an active link shows (today: the summary and chapters), keeping its address, so
 * people who have it see the change at their next visit. A revoked or expired link is the same
 * 404 as an unknown one: it cannot be brought back by editing.
 */
export async function updateShare(
  deps: TranscriptionDeps,
  actor: Actor,
  transcriptId: string,
  shareId: string,
  input: { includeInsights: boolean },
): Promise<ShareLink> {
  const row = await ownTranscript(deps, actor, transcriptId, 'transcript.share');
  const [updated] = await deps.db
    .update(shareLinks)
    .set({ includeInsights: input.includeInsights })
    .where(
      and(
        eq(shareLinks.id, shareId),
        eq(shareLinks.transcriptId, transcriptId),
        eq(shareLinks.workspaceId, row.workspaceId),
        activeAt(deps.now()),
      ),
    )
    .returning();
  if (!updated) throw shareNotFound();
  return updated;
}

export interface ResolvedShare {
  share: ShareLink;
  transcript: Transcript;
  /** The link owner's plan: a share never exports more than its owner could. */
  owner: Pick<User, 'rankName' | 'customLimits'>;
  exportFormats: ExportFormat[];
}

/**
 * The transcript behind a public link, or null when the link is unknown, revoked, expired,
 * belongs to another transcript or the transcript is no longer finished. The share id is the
 * lookup key, so there is no secret comparison to time.
 */
export async function resolveShare(
  deps: TranscriptionDeps,
  transcriptId: string,
  shareId: string,
  now: Date,
): Promise<ResolvedShare | null> {
  const [row] = await deps.db
    .select({ share: shareLinks, transcript: transcripts })
    .from(shareLinks)
    .innerJoin(transcripts, eq(transcripts.id, shareLinks.transcriptId))
    .where(and(eq(shareLinks.id, shareId), activeAt(now)));
  if (!row) return null;
  if (
    row.share.transcriptId !== transcriptId.toLowerCase() ||
    row.transcript.workspaceId !== row.share.workspaceId
  )
    return null;
  if (row.transcript.status !== 'done') return null;
  // The workspace's plan, not the link maker's (who may have left or deleted their account).
  const owner = await planLimits(deps.db, row.share.workspaceId);
  return {
    share: row.share,
    transcript: row.transcript,
    owner,
    exportFormats: limitsFor(owner.rankName, owner.customLimits).export_formats,
  };
}

/** One more view of a link's page (media and export requests do not count). */
export async function countView(deps: TranscriptionDeps, shareId: string): Promise<void> {
  await deps.db
    .update(shareLinks)
    .set({ views: sql`${shareLinks.views} + 1` })
    .where(eq(shareLinks.id, shareId));
}

/** A public link from the two ids of its path, or null for every kind of bad link. */
export async function findShare(
  deps: TranscriptionDeps,
  transcriptId: string,
  shareId: string,
): Promise<ResolvedShare | null> {
  if (!UUID_RE.test(transcriptId) || !SHARE_ID_RE.test(shareId)) return null;
  return resolveShare(deps, transcriptId, shareId, deps.now());
}

/**
 * Why a well-formed link no longer opens, when it once did: 'revoked' or 'expired' (its page says
 * so and offers the product). Unknown links and links to another transcript stay unexplained.
 */
export async function closedShare(
  deps: TranscriptionDeps,
  transcriptId: string,
  shareId: string,
): Promise<'revoked' | 'expired' | null> {
  if (!UUID_RE.test(transcriptId) || !SHARE_ID_RE.test(shareId)) return null;
  const [row] = await deps.db
    .select({
      transcriptId: shareLinks.transcriptId,
      revokedAt: shareLinks.revokedAt,
      expiresAt: shareLinks.expiresAt,
    })
    .from(shareLinks)
    .where(eq(shareLinks.id, shareId));
  if (!row || row.transcriptId !== transcriptId.toLowerCase()) return null;
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt <= deps.now()) return 'expired';
  return null;
}

/** Resolves and counts one view of a link; what the public JSON call and the SSR page share. */
export async function openShare(
  deps: TranscriptionDeps,
  transcriptId: string,
  shareId: string,
): Promise<SharedTranscriptJson | null> {
  const resolved = await findShare(deps, transcriptId, shareId);
  if (!resolved) return null;
  await countView(deps, resolved.share.id);
  const id = resolved.transcript.id;
  const insights = resolved.share.includeInsights
    ? { summary: await madeSummary(deps.db, id), chapters: await madeChapters(deps.db, id) }
    : undefined;
  return sharedTranscriptJson(resolved, await finishedTracks(deps.db, id), insights);
}

/** The transcript whose media a link plays; the one 404 when the link does not share media. */
export function sharedMedia({ share, transcript }: ResolvedShare): Transcript {
  if (!share.allowMedia || !transcript.mediaKey) throw shareNotFound();
  return transcript;
}

/** A link's transcript's finished translations, by language. */
export function finishedTracks(db: TranscriptionDeps['db'], transcriptId: string) {
  return db
    .select()
    .from(translationTracks)
    .where(and(eq(translationTracks.transcriptId, transcriptId), eq(translationTracks.status, 'done')))
    .orderBy(asc(translationTracks.language));
}

/**
 * A download through a link: only when it allows downloads, never beyond its owner's plan; in
 * a finished translation's language when `track` names one (else the same 404 as a bad link).
 */
export async function exportShared(
  db: TranscriptionDeps['db'],
  { share, transcript, owner }: ResolvedShare,
  format: ExportFormat,
  opts: ExportOptions & { track?: string },
): Promise<ExportFile> {
  if (!share.allowDownload) throw shareNotFound();
  assertFormatAllowed(owner, format);
  if (opts.track) {
    const wanted = opts.track.toLowerCase();
    const track = (await finishedTracks(db, transcript.id)).find((k) => k.language.toLowerCase() === wanted);
    if (!track) throw shareNotFound();
    return buildExport(trackSource(transcript, track), format, opts);
  }
  return buildExport(exportSource(transcript), format, opts);
}
