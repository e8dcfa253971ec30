// The `generate-insight` job (language lane): reads the transcript as it is now, generates the
// output with the language model, streams its text over the transcript's event channel and
// stores it with the revision it was made from. A failure gives the action back.
import { eq } from 'drizzle-orm';
import type { InsightEvent } from '../../../common/insights';
import type { InsightStage } from '../../../common/record-states';
import { insights, transcripts, type Insight, type InsightContent } from '../../db/schema';
import { streamedWriter } from '../jobs/streamed-writer';
import { JobInterruptedError, RetryableError, type JobContext } from '../jobs/queue';
import { LanguageModelError } from '../language-model/types';
import type { InsightDeps } from './deps';
import { generateChapters, generateSummary } from './generate';
import { templateGenerator } from './template-run';
import { insightJson } from './payload';
import { languageInstruction } from './prompts';
import { refundAction } from './quota';
import { revisionOf } from './transcript-lines';

/** Content made by a kind's generator; templates add theirs (templates.ts). */
export type Generator = (args: {
  deps: InsightDeps;
  row: Insight;
  transcript: typeof transcripts.$inferSelect;
  language: string;
  signal: AbortSignal;
  onToken: (text: string, phase: number) => void;
  onStage: (stage: InsightStage, progress: number) => void;
}) => Promise<InsightContent>;

/** What summary and chapters are made from: the transcript as it is now, in the chosen language. */
const generateInput = (a: Parameters<Generator>[0]) => ({
  model: a.deps.model,
  segments: a.transcript.segments,
  durationSec: a.transcript.durationSec ?? a.transcript.segments.at(-1)?.end ?? 0,
  language: a.language,
  signal: a.signal,
  onToken: a.onToken,
  onStage: a.onStage,
});

const generators: Partial<Record<Insight['kind'], Generator>> = {
  summary: async (a) => ({ summary: await generateSummary(generateInput(a)) }),
  chapters: async (a) => ({ chapters: await generateChapters(generateInput(a)) }),
  template: (a) => templateGenerator(a),
};

export function registerGenerator(kind: Insight['kind'], generator: Generator): void {
  generators[kind] = generator;
}

export async function runInsightJob(
  deps: InsightDeps,
  payload: { insightId: string },
  ctx: JobContext,
): Promise<void> {
  const [found] = await deps.db
    .select({ row: insights, transcript: transcripts })
    .from(insights)
    .innerJoin(transcripts, eq(transcripts.id, insights.transcriptId))
    .where(eq(insights.id, payload.insightId));
  if (!found || found.row.status === 'done' || found.row.status === 'failed') return;
  const { row, transcript } = found;
  const generate = generators[row.kind];
  if (!generate) throw new Error(`no generator for ${row.kind}`);
  const revision = revisionOf(transcript.segments);
  const publish = (event: InsightEvent) => deps.events.publish(row.transcriptId, event);

  let stage: InsightStage = 'reading';
  let progress = 0;
  const setStage = async (next: InsightStage, percent: number) => {
    if (next === stage && percent === progress) return;
    const changed = next !== stage || Math.abs(percent - progress) >= 1;
    stage = next;
    progress = percent;
    if (!changed) return;
    publish({ type: 'insight', id: row.id, kind: row.kind, status: 'running', progress, stage });
    await deps.db
      .update(insights)
      .set({ stage, progress, updatedAt: deps.now() })
      .where(eq(insights.id, row.id))
      .catch(() => undefined);
  };
  await deps.db
    .update(insights)
    .set({ status: 'running', stage, progress, updatedAt: deps.now() })
    .where(eq(insights.id, row.id));
  publish({ type: 'insight', id: row.id, kind: row.kind, status: 'running', progress, stage });

  const written = streamedWriter(deps.events, row.transcriptId, (piece) => ({
    type: 'insight-token',
    id: row.id,
    kind: row.kind,
    ...piece,
  }));
  try {
    const content = await generate({
      deps,
      row,
      transcript,
      language: languageInstruction(
        row.language as never,
        transcript.detectedLanguage ?? (transcript.language === 'auto' ? null : transcript.language),
      ),
      signal: ctx.signal,
      onToken: (text, phase) => written.write(text, phase),
      onStage: (s, p) => void setStage(s, p),
    });
    const now = deps.now();
    const [done] = await deps.db
      .update(insights)
      .set({
        status: 'done',
        progress: 100,
        stage: null,
        content,
        sourceHash: revision,
        model: deps.model.model,
        errorCode: null,
        actionId: null,
        updatedAt: now,
        completedAt: now,
      })
      .where(eq(insights.id, row.id))
      .returning();
    publish({ type: 'insight', id: row.id, kind: row.kind, status: 'done', progress: 100, stage: null });
    if (done && row.kind === 'summary')
      await deps.emit?.(transcript.workspaceId, 'summary.completed', {
        transcript_id: transcript.id,
        transcript_name: transcript.name,
        insight: insightJson(done, revision),
      });
  } catch (err) {
    if (ctx.signal.aborted && ctx.signal.reason === 'shutdown') throw new JobInterruptedError();
    const transient = err instanceof LanguageModelError && err.transient && ctx.attempt < ctx.maxAttempts;
    if (transient) {
      await deps.db
        .update(insights)
        .set({ status: 'queued', stage: null, progress: 0, updatedAt: deps.now() })
        .where(eq(insights.id, row.id));
      publish({ type: 'insight', id: row.id, kind: row.kind, status: 'queued', progress: 0, stage: null });
      throw new RetryableError((err as Error).message);
    }
    const code = err instanceof LanguageModelError ? err.code : 'failed';
    deps.logger.warn({ err, insightId: row.id, kind: row.kind }, 'AI output failed');
    const [failed] = await deps.db
      .update(insights)
      .set({ status: 'failed', stage: null, errorCode: code, actionId: null, updatedAt: deps.now() })
      .where(eq(insights.id, row.id))
      .returning();
    if (failed && row.actionId) await refundAction(deps.db, row.actionId);
    publish({
      type: 'insight',
      id: row.id,
      kind: row.kind,
      status: 'failed',
      progress: 0,
      stage: null,
      errorCode: code,
    });
  } finally {
    written.close();
  }
}
