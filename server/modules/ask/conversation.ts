// A person's conversation about a transcript or a folder: asking (one AI action charged, the
// question stored, its answer queued on the ask lane), reading it back, clearing it.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { AskCode } from '../../../common/error-codes';
import type { AskMessageJson, ConversationJson } from '../../../common/ask';
import { askMessages, folders, transcripts, workspaces, type AskMessage } from '../../db/schema';
import { ApiError } from '../errors';
import type { InsightDeps } from '../insights/deps';
import { aiUsage, chargeAction, refundAction } from '../insights/quota';
import type { Actor } from '../workspaces/actor';
import { scopeFor, scopeTranscripts, type Scope, type ScopeKind } from './scope';

export type AskDeps = Pick<InsightDeps, 'db' | 'queue' | 'events' | 'model' | 'logger' | 'now'>;

/** An answer queued or being written untouched for this long lost its job: asking again is allowed. */
const ABANDONED_MS = 10 * 60_000;

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export function messageJson(row: AskMessage): AskMessageJson {
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    citations: row.citations,
    status: row.status,
    found: row.found,
    error_code: row.errorCode,
    created_at: seconds(row.createdAt),
  };
}

export const pending = (row: AskMessage, now: Date) =>
  row.role === 'assistant' &&
  (row.status === 'queued' || row.status === 'running') &&
  now.getTime() - row.updatedAt.getTime() < ABANDONED_MS;

async function rowsOf(deps: Pick<AskDeps, 'db'>, scope: Scope): Promise<AskMessage[]> {
  return deps.db
    .select()
    .from(askMessages)
    .where(scope.where)
    .orderBy(asc(askMessages.createdAt), asc(askMessages.role));
}

async function usageOf(deps: Pick<AskDeps, 'db' | 'now'>, workspaceId: string) {
  const [workspace] = await deps.db.select().from(workspaces).where(eq(workspaces.id, workspaceId));
  return aiUsage(deps.db, workspace!, deps.now());
}

export async function conversation(
  deps: Pick<AskDeps, 'db' | 'now'>,
  actor: Actor,
  kind: ScopeKind,
  id: string,
): Promise<ConversationJson> {
  const scope = await scopeFor(deps.db, actor, kind, id);
  const covered = await deps.db
    .select({ id: transcripts.id, name: transcripts.name, folderId: transcripts.folderId })
    .from(transcripts)
    .where(
      and(
        kind === 'transcript' ? eq(transcripts.id, id) : eq(transcripts.folderId, id),
        eq(transcripts.workspaceId, scope.workspaceId),
      ),
    )
    .orderBy(asc(transcripts.createdAt));
  const folderId = kind === 'transcript' ? (covered[0]?.folderId ?? null) : null;
  const [folder] = folderId
    ? await deps.db
        .select({ id: folders.id, name: folders.name })
        .from(folders)
        .where(and(eq(folders.id, folderId), eq(folders.workspaceId, scope.workspaceId)))
    : [];
  return {
    scope: { kind, id },
    messages: (await rowsOf(deps, scope)).map(messageJson),
    transcripts: covered.map((t) => ({ id: t.id, name: t.name })),
    folder: folder ?? null,
    usage: await usageOf(deps, scope.workspaceId),
  };
}

/** Forgets the conversation (an answer on its way is dropped too: its job finds no row). */
export async function clearConversation(
  deps: Pick<AskDeps, 'db'>,
  actor: Actor,
  kind: ScopeKind,
  id: string,
): Promise<void> {
  const scope = await scopeFor(deps.db, actor, kind, id);
  await deps.db.delete(askMessages).where(scope.where);
}

/**
 * Asks a question: the question and its (queued) answer stored, one action charged, the answer
 * a job on the ask lane. One question at a time per conversation.
 */
export async function ask(
  deps: AskDeps,
  actor: Actor,
  kind: ScopeKind,
  id: string,
  question: string,
): Promise<{ question: AskMessageJson; answer: AskMessageJson }> {
  const scope = await scopeFor(deps.db, actor, kind, id);
  // What it reads exists and is reachable (each transcript checked), before anything is charged.
  await scopeTranscripts(deps.db, actor, scope);
  const now = deps.now();
  const rows = await rowsOf(deps, scope);
  if (rows.some((r) => pending(r, now))) throw new ApiError(AskCode.BUSY, 'errors.ask.busy');

  const actionId = await chargeAction(deps.db, {
    workspaceId: scope.workspaceId,
    userId: actor.user.id,
    transcriptId: kind === 'transcript' ? id : null,
    kind: 'ask',
    now,
  });
  const base = {
    workspaceId: scope.workspaceId,
    userId: actor.user.id,
    transcriptId: kind === 'transcript' ? id : null,
    folderId: kind === 'folder' ? id : null,
  };
  // The answer is a millisecond younger: the conversation reads in order.
  const [q, a] = await deps.db
    .insert(askMessages)
    .values([
      { ...base, role: 'user', content: question, status: 'done', createdAt: now, updatedAt: now },
      {
        ...base,
        role: 'assistant',
        status: 'queued',
        actionId,
        createdAt: new Date(now.getTime() + 1),
        updatedAt: now,
      },
    ])
    .returning();
  try {
    await deps.queue.add('answer-question', { messageId: a!.id }, { key: a!.id, once: true });
  } catch (err) {
    await deps.db.delete(askMessages).where(inArray(askMessages.id, [q!.id, a!.id]));
    await refundAction(deps.db, actionId);
    throw err;
  }
  return { question: messageJson(q!), answer: messageJson(a!) };
}

/** The caller's answer on its way in this conversation, if any. */
export async function pendingAnswer(
  deps: Pick<AskDeps, 'db' | 'now'>,
  scope: Scope,
): Promise<AskMessage | null> {
  const rows = await deps.db
    .select()
    .from(askMessages)
    .where(
      and(scope.where, eq(askMessages.role, 'assistant'), inArray(askMessages.status, ['queued', 'running'])),
    );
  const now = deps.now();
  return rows.find((r) => pending(r, now)) ?? null;
}
