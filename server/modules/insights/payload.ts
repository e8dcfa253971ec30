import type { InsightJson, InsightLanguage } from '../../../common/insights';
import type { Insight } from '../../db/schema';

const seconds = (d: Date | null) => (d ? Math.floor(d.getTime() / 1000) : null);

/** One output as the API answers it; `revision` is the transcript's current one (stale check). */
export function insightJson(row: Insight, revision: string): InsightJson {
  const c = row.content;
  return {
    id: row.id,
    transcript_id: row.transcriptId,
    kind: row.kind,
    template: row.kind === 'template' ? row.variant : null,
    status: row.status,
    language: row.language as InsightLanguage,
    progress: row.progress,
    stage: row.stage,
    summary: c && 'summary' in c ? c.summary : null,
    chapters: c && 'chapters' in c ? c.chapters : null,
    markdown: c && 'markdown' in c ? c.markdown : null,
    stale: c !== null && row.sourceHash !== revision,
    model: row.model,
    error_code: row.errorCode,
    created_at: seconds(row.createdAt)!,
    completed_at: seconds(row.completedAt),
  };
}
