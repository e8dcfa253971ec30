// The `answer-question` job (the ask lane, beside the language lane): reads what the question is
// about as it is now, picks what fits the model's context (retrieval.ts), asks the model, streams the answer's text over the
// event channel `ask:<answer id>` and stores the answer with checked citations. A failure gives
// the action back.
import { and, asc, eq, lt } from 'drizzle-orm';
import type { AskEvent } from '../../../common/ask';
import { can } from '../../../common/workspace-permissions';
import { askMessages, transcripts, workspaceMembers, type AskMessage } from '../../db/schema';
import { streamedWriter } from '../jobs/streamed-writer';
import { JobInterruptedError, RetryableError, type JobContext } from '../jobs/queue';
import { LanguageModelError, type LanguageModel } from '../language-model/types';
import { refundAction } from '../insights/quota';
import { toAnswer, type StoredAnswer } from './answer';
import type { AskDeps } from './conversation';
import {
  answerOutput,
  answerSize,
  askMessages as promptMessages,
  material,
  promptOverhead,
  type ModelAnswer,
  type Turn,
} from './prompt';
import { pickLines, questionTerms, type Doc } from './retrieval';

export const askChannel = (answerId: string) => `ask:${answerId}`;

/** A prompt the model said did not fit is made again with half the material, this many times. */
const MAX_SHRINKS = 3;

/** The transcripts the question reads, as of now (the asker's access was checked when asked). */
async function docsOf(deps: Pick<AskDeps, 'db'>, row: AskMessage): Promise<Doc[]> {
  const rows = await deps.db
    .select({ id: transcripts.id, name: transcripts.name, segments: transcripts.segments })
    .from(transcripts)
    .where(
      and(
        eq(transcripts.workspaceId, row.workspaceId),
        eq(transcripts.status, 'done'),
        row.transcriptId ? eq(transcripts.id, row.transcriptId) : eq(transcripts.folderId, row.folderId!),
      ),
    )
    .orderBy(asc(transcripts.createdAt));
  return rows.filter((d) => d.segments.some((s) => s.text.trim()));
}

/** Whether the asker may still ask there (a member removed meanwhile gets no answer). */
async function mayStillAsk(deps: Pick<AskDeps, 'db'>, row: AskMessage): Promise<boolean> {
  const [m] = await deps.db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, row.workspaceId), eq(workspaceMembers.userId, row.userId)));
  return !!m && can({ role: m.role }, 'transcript.ask');
}

export interface AnswerInput {
  db: AskDeps['db'];
  model: LanguageModel;
  docs: readonly Doc[];
  folder: boolean;
  turns: readonly Turn[];
  question: string;
  /** The question before it, whose words count half in retrieval. */
  earlier?: string;
  signal?: AbortSignal;
  onToken?: (text: string, phase: number) => void;
  temperature?: number;
}

/** One answer: retrieval, the completion (smaller material when it overflows), checked citations. */
export async function answerQuestion(input: AnswerInput): Promise<StoredAnswer> {
  const terms = questionTerms(input.question);
  const earlier = input.earlier ? questionTerms(input.earlier) : [];
  const size = answerSize(input.model.contextTokens);
  let budget = Math.max(
    256,
    input.model.contextTokens - size.tokens - promptOverhead(input.turns, input.question),
  );
  for (let shrink = 0; ; shrink++) {
    const { picked } = await pickLines(input.db, input.docs, budget, terms, earlier);
    const m = material(picked, input.folder);
    const allowed = [...m.refs.keys()];
    try {
      const result = await input.model.complete({
        messages: promptMessages(m, input.turns, input.question),
        schema: answerOutput(size, input.model.kind === 'local' ? allowed : undefined),
        maxTokens: size.tokens,
        temperature: input.temperature,
        signal: input.signal,
        onToken: input.onToken ? (t) => input.onToken!(t, shrink + 1) : undefined,
        // Someone waits for it: the local model runs it before a summary's next section.
        interactive: true,
      });
      return toAnswer(result.json as ModelAnswer, m.refs);
    } catch (err) {
      const overflow = err instanceof LanguageModelError && err.code === 'context_overflow';
      if (!overflow || shrink >= MAX_SHRINKS) throw err;
      budget = Math.floor(budget / 2);
    }
  }
}

export async function runAnswerJob(
  deps: AskDeps,
  payload: { messageId: string },
  ctx: JobContext,
): Promise<void> {
  const [row] = await deps.db.select().from(askMessages).where(eq(askMessages.id, payload.messageId));
  // Cleared meanwhile, or already settled.
  if (!row || row.status === 'done' || row.status === 'failed') return;
  const publish = (event: AskEvent) => deps.events.publish(askChannel(row.id), event);
  const scopeWhere = and(
    eq(askMessages.userId, row.userId),
    row.transcriptId
      ? eq(askMessages.transcriptId, row.transcriptId)
      : eq(askMessages.folderId, row.folderId!),
    lt(askMessages.createdAt, row.createdAt),
  );
  const before = await deps.db
    .select()
    .from(askMessages)
    .where(scopeWhere)
    .orderBy(asc(askMessages.createdAt), asc(askMessages.role));
  const question = before.at(-1);

  const fail = async (code: string, err?: unknown) => {
    if (err) deps.logger.warn({ err, messageId: row.id }, 'answer failed');
    const [failed] = await deps.db
      .update(askMessages)
      .set({ status: 'failed', errorCode: code, actionId: null, updatedAt: deps.now() })
      .where(eq(askMessages.id, row.id))
      .returning();
    if (failed && row.actionId) await refundAction(deps.db, row.actionId);
    publish({ type: 'ask', id: row.id, status: 'failed' });
  };

  if (!question || question.role !== 'user') return fail('failed');
  const docs = await docsOf(deps, row);
  if (docs.length === 0) return fail('not_ready');
  if (!(await mayStillAsk(deps, row))) return fail('forbidden');

  await deps.db
    .update(askMessages)
    .set({ status: 'running', updatedAt: deps.now() })
    .where(eq(askMessages.id, row.id));
  publish({ type: 'ask', id: row.id, status: 'running' });

  const turns: Turn[] = before
    .slice(0, -1)
    .filter((m) => m.status === 'done' && (m.role === 'user' || m.found))
    .map((m) => ({ role: m.role, content: m.content }));
  const earlier = before
    .slice(0, -1)
    .filter((m) => m.role === 'user')
    .at(-1)?.content;
  const written = streamedWriter(deps.events, askChannel(row.id), (piece) => ({
    type: 'ask-token',
    id: row.id,
    ...piece,
  }));
  try {
    const answer = await answerQuestion({
      db: deps.db,
      model: deps.model,
      docs,
      folder: row.folderId !== null,
      turns,
      question: question.content,
      earlier,
      signal: ctx.signal,
      onToken: (text, phase) => written.write(text, phase),
    });
    await deps.db
      .update(askMessages)
      .set({
        status: 'done',
        content: answer.content,
        citations: answer.citations,
        found: answer.found,
        model: deps.model.model,
        errorCode: null,
        actionId: null,
        updatedAt: deps.now(),
      })
      .where(eq(askMessages.id, row.id));
    publish({ type: 'ask', id: row.id, status: 'done' });
  } catch (err) {
    if (ctx.signal.aborted && ctx.signal.reason === 'shutdown') throw new JobInterruptedError();
    if (err instanceof LanguageModelError && err.transient && ctx.attempt < ctx.maxAttempts) {
      await deps.db
        .update(askMessages)
        .set({ status: 'queued', updatedAt: deps.now() })
        .where(eq(askMessages.id, row.id));
      publish({ type: 'ask', id: row.id, status: 'queued' });
      throw new RetryableError((err as Error).message);
    }
    await fail(err instanceof LanguageModelError ? err.code : 'failed', err);
  } finally {
    written.close();
  }
}
