import { and, inArray, isNotNull, like } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { renderJobs, transcripts } from '../../db/schema';
import type { Storage } from '../storage/storage';
import { backgroundKey } from '../render/background';
import { userPrefix } from '../storage/storage';

/**
 * Storage keys named by the rows of these workspaces (media and finished videos) and their
 * background pictures, read before the rows go so their files can follow them.
 */
export async function workspaceFileKeys(db: DbOrTx, workspaceIds: string[]): Promise<string[]> {
  if (workspaceIds.length === 0) return [];
  const media = await db
    .select({ key: transcripts.mediaKey })
    .from(transcripts)
    .where(and(inArray(transcripts.workspaceId, workspaceIds), isNotNull(transcripts.mediaKey)));
  const videos = await db
    .select({ key: renderJobs.outputKey })
    .from(renderJobs)
    .where(and(inArray(renderJobs.workspaceId, workspaceIds), isNotNull(renderJobs.outputKey)));
  return [...media, ...videos]
    .flatMap((r) => (r.key ? [r.key] : []))
    .concat(workspaceIds.map(backgroundKey));
}

/**
 * After a deleted account's rows are gone: removes its files under media/<user>/ that no
 * remaining row names. What it uploaded into a team keeps its key (the key is stored on the
 * row), so those files stay where they are and the team keeps playing them.
 */
export async function removeAccountMedia(
  db: DbOrTx,
  storage: Storage,
  userId: string,
  alsoKeys: string[] = [],
): Promise<void> {
  const prefix = userPrefix(userId);
  const kept = new Set<string>();
  for (const r of await db
    .select({ key: transcripts.mediaKey })
    .from(transcripts)
    .where(like(transcripts.mediaKey, `${prefix}%`)))
    if (r.key) kept.add(r.key);
  for (const r of await db
    .select({ key: renderJobs.outputKey })
    .from(renderJobs)
    .where(like(renderJobs.outputKey, `${prefix}%`)))
    if (r.key) kept.add(r.key);
  for (const key of new Set(alsoKeys.filter((k) => !kept.has(k)))) await storage.delete(key);
  if (kept.size === 0) return storage.deletePrefix(prefix);
  const doomed: string[] = [];
  for await (const item of storage.list(prefix)) if (!kept.has(item.key)) doomed.push(item.key);
  for (const key of doomed) await storage.delete(key);
}
