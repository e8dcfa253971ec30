// A workspace's own AI templates (docs/decisions/0037-ai-templates.md): listed with the built-in
// ones for any member, written, edited and deleted by editors and up. A template of a workspace
// the caller does not belong to answers exactly like a missing one.
import { and, asc, count, eq } from 'drizzle-orm';
import {
  builtinTemplates,
  MAX_TEMPLATES,
  type TemplateInput,
  type TemplateJson,
} from '../../../common/ai-templates';
import { TemplateCode } from '../../../common/error-codes';
import type { InsightLanguage } from '../../../common/insights';
import { LOCALES, type Locale } from '../../../common/locales';
import { UUID_RE } from '../../../common/validators';
import type { Db, DbOrTx } from '../../db/client';
import { aiTemplates, insights, type AiTemplate } from '../../db/schema';
import { ApiError } from '../errors';
import { assertCan, inActorsWorkspaces, roleIn } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';

export const templateNotFound = () => new ApiError(TemplateCode.NOT_FOUND, 'errors.templates.notFound');

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

export function templateJson(row: AiTemplate): TemplateJson {
  return {
    id: row.id,
    builtin: false,
    name: row.name,
    instructions: row.instructions,
    language: row.language as InsightLanguage | null,
    created_by: row.createdBy,
    created_at: seconds(row.createdAt),
    updated_at: seconds(row.updatedAt),
  };
}

/** The interface language of a person, for the built-in templates' names. */
export const localeOf = (language: string): Locale =>
  (LOCALES as readonly string[]).includes(language) ? (language as Locale) : 'en';

/** The built-in templates (in the caller's language) and the current workspace's own. */
export async function listTemplates(
  db: Db,
  actor: Actor,
): Promise<{ builtin: TemplateJson[]; templates: TemplateJson[] }> {
  assertCan(actor.role, 'transcript.read');
  const rows = await db
    .select()
    .from(aiTemplates)
    .where(eq(aiTemplates.workspaceId, actor.workspace.id))
    .orderBy(asc(aiTemplates.createdAt));
  return { builtin: builtinTemplates(localeOf(actor.user.language)), templates: rows.map(templateJson) };
}

export async function createTemplate(
  db: Db,
  actor: Actor,
  input: TemplateInput,
  now: Date,
): Promise<TemplateJson> {
  assertCan(actor.role, 'template.manage');
  const [n] = await db
    .select({ n: count() })
    .from(aiTemplates)
    .where(eq(aiTemplates.workspaceId, actor.workspace.id));
  if ((n?.n ?? 0) >= MAX_TEMPLATES)
    throw new ApiError(TemplateCode.LIMIT_REACHED, 'errors.templates.limitReached', {
      limit: MAX_TEMPLATES,
      count: MAX_TEMPLATES,
    });
  const [row] = await db
    .insert(aiTemplates)
    .values({
      workspaceId: actor.workspace.id,
      createdBy: actor.user.id,
      name: input.name,
      instructions: input.instructions,
      language: input.language,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return templateJson(row!);
}

/** An own template found through the caller's membership of its workspace, with the role there. */
async function templateOf(db: Db, actor: Actor, id: string) {
  if (!UUID_RE.test(id)) throw templateNotFound();
  const [found] = await db
    .select({ template: aiTemplates, role: roleIn(actor, aiTemplates.workspaceId) })
    .from(aiTemplates)
    .where(and(eq(aiTemplates.id, id), inActorsWorkspaces(actor, aiTemplates.workspaceId)));
  if (!found) throw templateNotFound();
  return { template: found.template, role: found.role ?? actor.role };
}

export async function updateTemplate(
  db: Db,
  actor: Actor,
  id: string,
  input: TemplateInput,
  now: Date,
): Promise<TemplateJson> {
  const { role } = await templateOf(db, actor, id);
  assertCan(role, 'template.manage');
  const [row] = await db
    .update(aiTemplates)
    .set({ name: input.name, instructions: input.instructions, language: input.language, updatedAt: now })
    .where(eq(aiTemplates.id, id))
    .returning();
  if (!row) throw templateNotFound();
  return templateJson(row);
}

/** Deletes a template and what it made (its outputs name a template that is gone). */
export async function deleteTemplate(db: Db, actor: Actor, id: string): Promise<void> {
  const { role } = await templateOf(db, actor, id);
  assertCan(role, 'template.manage');
  await db.transaction(async (tx) => {
    await tx.delete(insights).where(and(eq(insights.kind, 'template'), eq(insights.variant, id)));
    await tx.delete(aiTemplates).where(eq(aiTemplates.id, id));
  });
}

/** An own template of one workspace (the transcript's), or null. */
export async function workspaceTemplate(
  db: DbOrTx,
  workspaceId: string,
  id: string,
): Promise<AiTemplate | null> {
  if (!UUID_RE.test(id)) return null;
  const [row] = await db
    .select()
    .from(aiTemplates)
    .where(and(eq(aiTemplates.id, id), eq(aiTemplates.workspaceId, workspaceId)));
  return row ?? null;
}
