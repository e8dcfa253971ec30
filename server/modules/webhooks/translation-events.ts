import { eq } from 'drizzle-orm';
import { translationTracks } from '../../db/schema';
import { trackJson } from '../translation/payload';
import type { WebhookDeps } from './deps';
import { emitWebhookEvent } from './deliver';

/** `translation.completed` to the endpoints of the track's workspace; never fails the job. */
export function translationWebhooks(deps: WebhookDeps) {
  return async (trackId: string): Promise<void> => {
    try {
      const [row] = await deps.db.select().from(translationTracks).where(eq(translationTracks.id, trackId));
      if (!row) return;
      const { texts: _texts, ...data } = trackJson(row);
      await emitWebhookEvent(deps, row.workspaceId, 'translation.completed', data);
    } catch (err) {
      deps.logger.error({ err, trackId }, 'webhook event not recorded');
    }
  };
}
