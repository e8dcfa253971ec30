// Asking for an AI output of a transcript: checks, one action charged, the row set to queued and
// a job on the language lane. Asking again while one is on its way answers that one.
import { and, eq } from 'drizzle-orm';
import { InsightCode } from '../../../common/error-codes';
import type { InsightJson, InsightLanguage } from '../../../common/insights';
import type { InsightKind } from '../../../common/record-states';
import { insights, type Insight, type Transcript } from '../../db/schema';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { transcriptFor } from './access';
import type { InsightDeps } from './deps';
import { insightJson } from './payload';
import { chargeAction, refundAction } from './quota';
import { revisionOf } from './transcript-lines';

/** A queued or running output untouched for this long lost its job: asking again starts anew. */
const ABANDONED_MS = 10 * 60_000;

export const insightNotReady = () => new ApiError(InsightCode.NOT_READY, 'errors.insights.notReady');

/** Whether a transcript has text to work on. */
export function assertReady(t: Transcript): void {
  if (t.status !== 'done' || !t.segments.some((s) => s.text.trim())) throw insightNotReady();
}

export async function requestInsight(
  deps: InsightDeps,
  actor: Actor,
  transcriptId: string,
  /** `variant`: which template (kind `template` only). */
  input: { kind: InsightKind; language: InsightLanguage; variant?: string },
): Promise<InsightJson> {
  const { transcript } = await transcriptFor(deps.db, actor, transcriptId, 'transcript.ai');
  assertReady(transcript);
  const revision = revisionOf(transcript.segments);
  const variant = input.kind === 'template' ? (input.variant ?? '') : '';
  const now = deps.now();
  const [existing] = await deps.db
    .select()
    .from(insights)
    .where(
      and(
        eq(insights.transcriptId, transcript.id),
        eq(insights.kind, input.kind),
        eq(insights.variant, variant),
      ),
    );
  if (
    existing &&
    (existing.status === 'queued' || existing.status === 'running') &&
    now.getTime() - existing.updatedAt.getTime() < ABANDONED_MS
  )
    return insightJson(existing, revision);

  const actionId = await chargeAction(deps.db, {
    workspaceId: transcript.workspaceId,
    userId: actor.user.id,
    transcriptId: transcript.id,
    kind: input.kind,
    now,
  });
  const values = {
    workspaceId: transcript.workspaceId,
    userId: actor.user.id,
    transcriptId: transcript.id,
    kind: input.kind,
    variant,
    language: input.language,
    status: 'queued' as const,
    progress: 0,
    stage: null,
    sourceHash: existing?.sourceHash ?? revision,
    actionId,
    errorCode: null,
    updatedAt: now,
  };
  const [row] = await deps.db
    .insert(insights)
    .values({ ...values, createdAt: now })
    .onConflictDoUpdate({ target: [insights.transcriptId, insights.kind, insights.variant], set: values })
    .returning();
  await queueRun(deps, row!, actionId);
  return insightJson(row!, revision);
}

/** Queues the run; when the queue cannot take it, the row fails and the action is given back. */
export async function queueRun(deps: InsightDeps, row: Insight, actionId: string): Promise<void> {
  try {
    await deps.queue.add('generate-insight', { insightId: row.id }, { key: row.id, once: true });
  } catch (err) {
    await deps.db
      .update(insights)
      .set({ status: 'failed', errorCode: 'unavailable', actionId: null })
      .where(eq(insights.id, row.id));
    await refundAction(deps.db, actionId);
    throw err;
  }
  deps.events.publish(row.transcriptId, {
    type: 'insight',
    id: row.id,
    kind: row.kind,
    status: 'queued',
    progress: 0,
    stage: null,
  });
}
