// Running a template on a transcript (decision 0037): asked for like a summary (one AI action, a
// job on the language lane, the output stored with the revision it was made from), the insight's
// variant naming the template: a built-in one's id or an own template's uuid, which must belong
// to the transcript's workspace.
import { BUILTIN_TEMPLATES, isBuiltinTemplate } from '../../../common/ai-templates';
import type { InsightJson, InsightLanguage } from '../../../common/insights';
import { templateNotFound, workspaceTemplate } from '../ai-templates/templates';
import type { Actor } from '../workspaces/actor';
import { transcriptFor } from './access';
import type { InsightDeps } from './deps';
import { requestInsight } from './request';
import type { Generator } from './run';
import { generateTemplate } from './template-output';

/** The instructions and default language of a template the transcript's workspace can run. */
async function templateFor(
  db: InsightDeps['db'],
  workspaceId: string,
  id: string,
): Promise<{ instructions: string; language: InsightLanguage | null } | null> {
  // The model reads a built-in template's English instructions; people read theirs in their language.
  if (isBuiltinTemplate(id)) return { instructions: BUILTIN_TEMPLATES[id].instructions.en, language: null };
  const row = await workspaceTemplate(db, workspaceId, id);
  return row ? { instructions: row.instructions, language: row.language as InsightLanguage | null } : null;
}

export async function requestTemplateRun(
  deps: InsightDeps,
  actor: Actor,
  transcriptId: string,
  input: { template: string; language?: InsightLanguage; fallbackLanguage: InsightLanguage },
): Promise<InsightJson> {
  const { transcript } = await transcriptFor(deps.db, actor, transcriptId, 'transcript.ai');
  const template = await templateFor(deps.db, transcript.workspaceId, input.template);
  if (!template) throw templateNotFound();
  return requestInsight(deps, actor, transcriptId, {
    kind: 'template',
    variant: input.template,
    language: input.language ?? template.language ?? input.fallbackLanguage,
  });
}

export const templateGenerator: Generator = async (a) => {
  const template = await templateFor(a.deps.db, a.transcript.workspaceId, a.row.variant);
  // Deleted since it was asked for: nothing to run (its outputs went with it).
  if (!template) throw new Error('the template no longer exists');
  return {
    markdown: await generateTemplate({
      model: a.deps.model,
      segments: a.transcript.segments,
      instructions: template.instructions,
      language: a.language,
      signal: a.signal,
      onToken: a.onToken,
      onStage: a.onStage,
    }),
  };
};
