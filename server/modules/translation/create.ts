import { and, eq } from 'drizzle-orm';
import { translationTracks, type TranslationTrack } from '../../db/schema';
import { ExportCode, TranslationCode } from '../../../common/error-codes';
import { translationLanguage } from '../../../common/translation-languages';
import { ApiError } from '../errors';
import type { Actor } from '../workspaces/actor';
import { workspacePlan } from '../workspaces/plan';
import { transcriptFor } from '../render/access';
import type { TranslationDeps } from './deps';
import { translationCharsUsed } from './quota';

/**
 * Asks for a translation of a finished transcript into `language` (a new track, or the existing
 * track of that language made again): charged by source characters against the plan, then queued.
 */
export async function createTrack(
  deps: TranslationDeps,
  actor: Actor,
  transcriptId: string,
  language: string,
): Promise<TranslationTrack> {
  const lang = translationLanguage(language);
  if (!lang) throw new ApiError(TranslationCode.BAD_LANGUAGE, 'validation.language');
  const { transcript, workspace } = await transcriptFor(deps.db, actor, transcriptId, 'transcript.edit');
  if (transcript.status !== 'done') throw new ApiError(ExportCode.NOT_READY, 'errors.exports.notReady');
  const chars = transcript.segments.reduce((n, s) => n + s.text.length, 0);
  const plan = await workspacePlan(deps.db, workspace);
  const { limits } = plan;
  const now = deps.now();
  const row = await deps.db.transaction(async (tx) => {
    const [existing] = await tx
      .select()
      .from(translationTracks)
      .where(
        and(eq(translationTracks.transcriptId, transcript.id), eq(translationTracks.language, lang.code)),
      );
    if (existing && (existing.status === 'queued' || existing.status === 'running')) {
      throw new ApiError(TranslationCode.BUSY, 'errors.translation.busy');
    }
    if (limits.translation_chars_per_month !== null) {
      const left = limits.translation_chars_per_month - (await translationCharsUsed(tx, plan, workspace.id, now));
      if (chars > left) {
        throw new ApiError(TranslationCode.QUOTA_EXCEEDED, 'errors.translation.quotaExceeded', {
          chars_left: Math.max(0, left),
        });
      }
    }
    const values = {
      status: 'queued' as const,
      progress: 0,
      texts: transcript.segments.map(() => ''),
      chars,
      errorCode: null,
      completedAt: null,
      sourceUpdatedAt: transcript.updatedAt,
      updatedAt: now,
    };
    const [written] = existing
      ? await tx
          .update(translationTracks)
          .set({ ...values, revision: existing.revision + 1 })
          .where(eq(translationTracks.id, existing.id))
          .returning()
      : await tx
          .insert(translationTracks)
          .values({
            ...values,
            workspaceId: workspace.id,
            userId: actor.user.id,
            transcriptId: transcript.id,
            language: lang.code,
            createdAt: now,
          })
          .returning();
    if (deps.queue.addInTransaction)
      await deps.queue.addInTransaction(
        tx,
        'translate-track',
        { trackId: written!.id },
        { key: written!.id },
      );
    return written!;
  });
  if (!deps.queue.addInTransaction)
    await deps.queue.add('translate-track', { trackId: row.id }, { key: row.id });
  return row;
}
