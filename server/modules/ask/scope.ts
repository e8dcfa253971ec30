// What a conversation is about, reached through the caller's membership (decision 0027): one
// transcript, or a folder and its finished transcripts, every one of them checked with `can`
// (asking is `transcript.ask`, a viewer's right). Someone else's answers like a missing one.
import { and, asc, eq, isNull, type SQL } from 'drizzle-orm';
import { AskCode } from '../../../common/error-codes';
import type { Db } from '../../db/client';
import { askMessages, transcripts, type Transcript } from '../../db/schema';
import { ApiError } from '../errors';
import { transcriptFor } from '../insights/access';
import { assertReady } from '../insights/request';
import { ownFolder } from '../transcription/ownership';
import type { Actor } from '../workspaces/actor';
import { inActorsWorkspaces } from '../workspaces/access';

export type ScopeKind = 'transcript' | 'folder';

export interface Scope {
  kind: ScopeKind;
  id: string;
  workspaceId: string;
  /** Rows of the caller's conversation here. */
  where: SQL;
}

const conversationOf = (actor: Actor, kind: ScopeKind, id: string): SQL =>
  and(
    eq(askMessages.userId, actor.user.id),
    kind === 'transcript' ? eq(askMessages.transcriptId, id) : eq(askMessages.folderId, id),
    kind === 'transcript' ? isNull(askMessages.folderId) : isNull(askMessages.transcriptId),
  )!;

/** The scope, when the caller may ask there (404 / 403 otherwise). */
export async function scopeFor(db: Db, actor: Actor, kind: ScopeKind, id: string): Promise<Scope> {
  if (kind === 'transcript') {
    const { transcript } = await transcriptFor(db, actor, id, 'transcript.ask');
    return { kind, id, workspaceId: transcript.workspaceId, where: conversationOf(actor, kind, id) };
  }
  const folder = await ownFolder({ db }, actor, id, 'folder.read');
  return { kind, id, workspaceId: folder.workspaceId, where: conversationOf(actor, kind, id) };
}

/**
 * The transcripts a question reads: the one, or the folder's finished ones with text, oldest
 * first, each checked through the permission function.
 */
export async function scopeTranscripts(db: Db, actor: Actor, scope: Scope): Promise<Transcript[]> {
  if (scope.kind === 'transcript') {
    const { transcript } = await transcriptFor(db, actor, scope.id, 'transcript.ask');
    assertReady(transcript);
    return [transcript];
  }
  const rows = await db
    .select({ id: transcripts.id })
    .from(transcripts)
    .where(
      and(
        eq(transcripts.folderId, scope.id),
        eq(transcripts.status, 'done'),
        inActorsWorkspaces(actor, transcripts.workspaceId),
      ),
    )
    .orderBy(asc(transcripts.createdAt));
  const out: Transcript[] = [];
  for (const { id } of rows) {
    const { transcript } = await transcriptFor(db, actor, id, 'transcript.ask');
    if (transcript.segments.some((s) => s.text.trim())) out.push(transcript);
  }
  if (out.length === 0) throw new ApiError(AskCode.FOLDER_EMPTY, 'errors.ask.folderEmpty');
  return out;
}
