import { eq } from 'drizzle-orm';
import { transcripts } from '../../db/schema';
import { transcriptJson } from '../transcription/payload';
import type { TranscriptNotice } from '../transcription/deps';
import type { WebhookDeps } from './deps';
import { emitWebhookEvent } from './deliver';

/**
 * Turns the transcription module's notices into webhook events. A failure here is logged and
 * never fails the transcription (or the delete) that caused it.
 */
export function transcriptWebhooks(deps: WebhookDeps) {
  return async (notice: TranscriptNotice): Promise<void> => {
    try {
      if (notice.event === 'transcript.deleted') {
        await emitWebhookEvent(deps, notice.workspaceId, notice.event, {
          id: notice.transcriptId,
          name: notice.name,
        });
        return;
      }
      const [row] = await deps.db.select().from(transcripts).where(eq(transcripts.id, notice.transcriptId));
      if (!row) return;
      const { segments: _segments, speech_regions: _regions, ...data } = transcriptJson(row);
      await emitWebhookEvent(deps, row.workspaceId, notice.event, data);
    } catch (err) {
      deps.logger.error({ err, notice }, 'webhook event not recorded');
    }
  };
}
