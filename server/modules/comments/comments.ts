import { and, asc, eq, inArray } from 'drizzle-orm';
import { CommentCode } from '../../../common/error-codes';
import type { CommentInput } from '../../../common/comments';
import { transcriptComments, users, workspaceMembers, type TranscriptComment } from '../../db/schema';
import { ApiError } from '../errors';
import { listActivity, recordActivity } from '../transcription/activity';
import { ownTranscript } from '../transcription/ownership';
import { assertCan, roleIn } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';
import type { CommentDeps } from './deps';
import { renderMentionMail } from './mention-mail';
import type { CommentJson } from '../../../common/comments';

// Comments on a moment of a transcript (decision 0027, issue #26 part 4). A comment is reached
// through its transcript, so through the caller's membership of the transcript's workspace;
// what a member may do to one comment is `can` with whether they wrote it.

export const commentNotFound = () => new ApiError(CommentCode.NOT_FOUND, 'errors.comments.notFound');

type Named = { id: string; name: string | null; email: string };
const display = (u: Named) => ({ id: u.id, name: u.name || u.email });

function commentJson(c: TranscriptComment, people: Map<string, Named>): CommentJson {
  const author = c.userId ? people.get(c.userId) : undefined;
  return {
    id: c.id,
    transcript_id: c.transcriptId,
    parent_id: c.parentId,
    segment_index: c.segmentIndex,
    start: c.startSec,
    end: c.endSec,
    body: c.body,
    mentions: c.mentions.flatMap((id) => {
      const who = people.get(id);
      return who ? [display(who)] : [];
    }),
    author: author ? display(author) : null,
    resolved: c.resolvedAt ? { by: c.resolvedBy, at: c.resolvedAt.toISOString() } : null,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}

async function peopleOf(deps: CommentDeps, rows: TranscriptComment[]): Promise<Map<string, Named>> {
  const ids = [...new Set(rows.flatMap((r) => [...(r.userId ? [r.userId] : []), ...r.mentions]))];
  if (ids.length === 0) return new Map();
  const found = await deps.db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(inArray(users.id, ids));
  return new Map(found.map((u) => [u.id, u]));
}

/** A transcript's comments, oldest first (replies follow their thread on the page). */
export async function listComments(deps: CommentDeps, actor: Actor, transcriptId: string) {
  const t = await ownTranscript(deps, actor, transcriptId, 'transcript.read');
  const rows = await deps.db
    .select()
    .from(transcriptComments)
    .where(and(eq(transcriptComments.transcriptId, t.id), eq(transcriptComments.workspaceId, t.workspaceId)))
    .orderBy(asc(transcriptComments.createdAt), asc(transcriptComments.id));
  const people = await peopleOf(deps, rows);
  return rows.map((r) => commentJson(r, people));
}

/**
 * Writes a comment (or a reply) on a moment of the transcript. Mentions keep only members of the
 * transcript's workspace (not the author); each one mentioned gets a mail in their language with
 * a link to the moment.
 */
export async function addComment(
  deps: CommentDeps,
  actor: Actor,
  transcriptId: string,
  input: CommentInput,
  origin: string,
): Promise<CommentJson> {
  const t = await ownTranscript(deps, actor, transcriptId, 'transcript.comment');
  let parent: TranscriptComment | null = null;
  if (input.parent_id) {
    const [found] = await deps.db
      .select()
      .from(transcriptComments)
      .where(and(eq(transcriptComments.id, input.parent_id), eq(transcriptComments.transcriptId, t.id)));
    if (!found) throw commentNotFound();
    // One level of replies: an answer to a reply joins its thread.
    parent = found.parentId
      ? ((
          await deps.db.select().from(transcriptComments).where(eq(transcriptComments.id, found.parentId))
        )[0] ?? found)
      : found;
  }
  const segment = input.segment_index ?? parent?.segmentIndex ?? null;
  if (segment !== null && !t.segments[segment]) {
    throw new ApiError(CommentCode.BAD_MOMENT, 'errors.comments.badMoment');
  }
  const start = input.start ?? parent?.startSec ?? (segment !== null ? t.segments[segment]!.start : 0);
  const end = input.end ?? parent?.endSec ?? (segment !== null ? t.segments[segment]!.end : null);
  if (end !== null && end < start) throw new ApiError(CommentCode.BAD_MOMENT, 'errors.comments.badMoment');
  const wanted = [...new Set(input.mentions ?? [])].filter((id) => id !== actor.user.id);
  const mentioned = wanted.length
    ? await deps.db
        .select({ id: users.id, email: users.email, name: users.name, language: users.language })
        .from(workspaceMembers)
        .innerJoin(users, eq(users.id, workspaceMembers.userId))
        .where(and(eq(workspaceMembers.workspaceId, t.workspaceId), inArray(workspaceMembers.userId, wanted)))
    : [];
  const now = deps.now();
  const [row] = await deps.db
    .insert(transcriptComments)
    .values({
      workspaceId: t.workspaceId,
      transcriptId: t.id,
      userId: actor.user.id,
      parentId: parent?.id ?? null,
      segmentIndex: segment,
      startSec: start,
      endSec: end,
      body: input.body,
      mentions: mentioned.map((m) => m.id),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await recordActivity(
    deps.db,
    { workspaceId: t.workspaceId, transcriptId: t.id, userId: actor.user.id, kind: 'commented' },
    now,
  );
  const author = actor.user.name || actor.user.email;
  const link = `${origin.replace(/\/$/, '')}/transcript/${t.id}?t=${Math.floor(start)}#comment-${row!.id}`;
  for (const m of mentioned) {
    await deps.sendMail({
      to: m.email,
      ...renderMentionMail({
        lang: m.language,
        appName: deps.appName,
        author,
        transcript: t.name,
        excerpt: input.body,
        at: start,
        link,
      }),
    });
  }
  const json = commentJson(row!, await peopleOf(deps, [row!]));
  await deps.commentCreated?.(t.workspaceId, json as unknown as Record<string, unknown>);
  return json;
}

/** One comment of a transcript the actor reaches, with the actor's role in its workspace. */
async function ownComment(deps: CommentDeps, actor: Actor, transcriptId: string, commentId: string) {
  await ownTranscript(deps, actor, transcriptId, 'transcript.read');
  const [found] = await deps.db
    .select({ row: transcriptComments, role: roleIn(actor, transcriptComments.workspaceId) })
    .from(transcriptComments)
    .where(and(eq(transcriptComments.id, commentId), eq(transcriptComments.transcriptId, transcriptId)));
  if (!found?.role) throw commentNotFound();
  return { comment: found.row, role: found.role, author: found.row.userId === actor.user.id };
}

export async function editComment(
  deps: CommentDeps,
  actor: Actor,
  transcriptId: string,
  commentId: string,
  body: string,
): Promise<CommentJson> {
  const { role, author } = await ownComment(deps, actor, transcriptId, commentId);
  assertCan(role, 'comment.edit', { author });
  const [row] = await deps.db
    .update(transcriptComments)
    .set({ body, updatedAt: deps.now() })
    .where(and(eq(transcriptComments.id, commentId), eq(transcriptComments.userId, actor.user.id)))
    .returning();
  if (!row) throw commentNotFound();
  return commentJson(row, await peopleOf(deps, [row]));
}

/** Deletes a comment with its replies. */
export async function deleteComment(
  deps: CommentDeps,
  actor: Actor,
  transcriptId: string,
  commentId: string,
) {
  const { comment, role, author } = await ownComment(deps, actor, transcriptId, commentId);
  assertCan(role, 'comment.delete', { author });
  await deps.db
    .delete(transcriptComments)
    .where(
      and(eq(transcriptComments.id, commentId), eq(transcriptComments.workspaceId, comment.workspaceId)),
    );
}

/** Marks a thread resolved (or open again). */
export async function resolveComment(
  deps: CommentDeps,
  actor: Actor,
  transcriptId: string,
  commentId: string,
  resolved: boolean,
): Promise<CommentJson> {
  const { comment, role, author } = await ownComment(deps, actor, transcriptId, commentId);
  assertCan(role, 'comment.resolve', { author });
  const now = deps.now();
  const [row] = await deps.db
    .update(transcriptComments)
    .set(resolved ? { resolvedAt: now, resolvedBy: actor.user.id } : { resolvedAt: null, resolvedBy: null })
    .where(and(eq(transcriptComments.id, commentId), eq(transcriptComments.workspaceId, comment.workspaceId)))
    .returning();
  return commentJson(row!, await peopleOf(deps, [row!]));
}

/** What happened to a transcript the actor reaches, newest first. */
export async function transcriptActivity(deps: CommentDeps, actor: Actor, transcriptId: string) {
  const t = await ownTranscript(deps, actor, transcriptId, 'transcript.read');
  return listActivity(deps.db, t.id);
}
