import { LinkCode } from '../../../common/error-codes';
import type { LinkRun } from '../../../common/run-options';
import { transcripts } from '../../db/schema';
import { assertCan } from '../workspaces/access';
import type { Actor } from '../workspaces/actor';
import { ApiError } from '../errors';
import type { PrivateAllowance } from '../outbound/address';
import { checkDestination, OutboundError } from '../outbound/destination';
import { assertAdmission } from '../transcription/admission';
import { nameFromFile } from '../transcription/names';
import { targetFolderId } from '../transcription/ownership';
import { recordActivity } from '../transcription/activity';
import { runColumns } from '../transcription/run-columns';
import type { LinkImportDeps } from './deps';
import { queueLinkDownload } from './jobs';
import { filenameFromUrl } from './names';

const badUrl = () => new ApiError(LinkCode.BAD_URL, 'errors.links.badUrl');

/**
 * Refuses a link no download could ever use, now, so the user hears it at once: not http(s),
 * credentials in it, or a host that is (or resolves to) anything but a public address. A name
 * that does not resolve gets the same answer as a private one (one code: no oracle for which
 * internal names exist). The download checks every address again as it connects, redirects
 * included.
 */
export async function assertImportableUrl(raw: string, allowPrivate: PrivateAllowance): Promise<URL> {
  try {
    return await checkDestination(raw, allowPrivate);
  } catch (err) {
    if (!(err instanceof OutboundError)) throw err;
    if (err.reason === 'bad_url') throw badUrl();
    throw new ApiError(LinkCode.BLOCKED, 'errors.links.blocked');
  }
}

/**
 * A transcript from a link: checked (the address, the folder, the plan's minutes and jobs at
 * once), created with the link as its source, and its download queued. Size and length are
 * checked while the file arrives (modules/link-import/download.ts).
 */
export async function importFromLink(deps: LinkImportDeps, actor: Actor, input: LinkRun) {
  const t = deps.transcription;
  const url = await assertImportableUrl(input.url, deps.allowPrivate);
  assertCan(actor.role, 'transcript.create');
  const folderId = await targetFolderId(t, actor, input.folder_id);
  await assertAdmission(t.db, actor.user, { workspaceId: actor.workspace.id }, t.now());
  const fromPath = filenameFromUrl(url.href);
  const [row] = await t.db
    .insert(transcripts)
    .values({
      workspaceId: actor.workspace.id,
      userId: actor.user.id,
      folderId,
      name: input.name?.trim() || (fromPath ? nameFromFile(fromPath) : url.hostname),
      source: 'link',
      sourceUrl: url.href,
      status: 'queued',
      stage: 'downloading',
      ...runColumns(input),
      mediaName: fromPath,
    })
    .returning();
  await recordActivity(
    t.db,
    {
      workspaceId: row!.workspaceId,
      transcriptId: row!.id,
      userId: actor.user.id,
      kind: 'uploaded',
      detail: { source: 'link' },
    },
    t.now(),
  );
  // The name follows the file (Content-Disposition, the page's title) unless one was given.
  await queueLinkDownload(t.queue, row!.id, { rename: !input.name?.trim() });
  return row!;
}
