import { eq } from 'drizzle-orm';
import type { AiUsageJson, InsightJson } from '../../../common/insights';
import { insights, workspaces } from '../../db/schema';
import type { Actor } from '../workspaces/actor';
import { transcriptFor } from './access';
import type { InsightDeps } from './deps';
import { insightJson } from './payload';
import { aiUsage } from './quota';
import { revisionOf } from './transcript-lines';

export interface TranscriptInsightsJson {
  summary: InsightJson | null;
  chapters: InsightJson | null;
  /** Outputs of templates run on it (variant: the template), newest first. */
  templates: InsightJson[];
  /** The AI actions of the transcript's workspace this month. */
  usage: AiUsageJson;
}

/** A transcript's summary and chapters (null when never asked for) and the month's AI actions. */
export async function transcriptInsights(
  deps: Pick<InsightDeps, 'db' | 'now'>,
  actor: Actor,
  transcriptId: string,
): Promise<TranscriptInsightsJson> {
  const { transcript } = await transcriptFor(deps.db, actor, transcriptId, 'transcript.read');
  const revision = revisionOf(transcript.segments);
  const rows = await deps.db.select().from(insights).where(eq(insights.transcriptId, transcript.id));
  const [workspace] = await deps.db
    .select()
    .from(workspaces)
    .where(eq(workspaces.id, transcript.workspaceId));
  const of = (kind: 'summary' | 'chapters') => {
    const row = rows.find((r) => r.kind === kind && r.variant === '');
    return row ? insightJson(row, revision) : null;
  };
  return {
    summary: of('summary'),
    chapters: of('chapters'),
    templates: rows
      .filter((r) => r.kind === 'template')
      .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())
      .map((r) => insightJson(r, revision)),
    usage: await aiUsage(deps.db, workspace!, deps.now()),
  };
}
