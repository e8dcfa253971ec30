// Transcript events over Redis pub/sub, for web processes and workers on several machines. Its own
// file so ioredis is loaded only when REDIS_URL is set (docs/decisions/0015-lean-by-default.md).
import { Redis } from 'ioredis';
import type { Logger } from '../../logger';
import { createLocalEvents, type TranscriptEvent, type TranscriptEvents } from './events';

const CHANNEL_PREFIX = 'clipscribe:transcript:';

export function createRedisEvents(url: string, logger: Logger): TranscriptEvents {
  const local = createLocalEvents();
  const pub = new Redis(url, { maxRetriesPerRequest: 2 });
  const sub = new Redis(url, { maxRetriesPerRequest: null });
  for (const conn of [pub, sub]) conn.on('error', (err) => logger.warn({ err: err.message }, 'redis events'));
  void sub.psubscribe(`${CHANNEL_PREFIX}*`);
  sub.on('pmessage', (_pattern, channel: string, message: string) => {
    try {
      local.publish(channel.slice(CHANNEL_PREFIX.length), JSON.parse(message) as TranscriptEvent);
    } catch (err) {
      logger.warn({ err }, 'bad transcript event');
    }
  });
  return {
    publish(id, event) {
      pub
        .publish(CHANNEL_PREFIX + id, JSON.stringify(event))
        .catch((err: Error) => logger.warn({ err: err.message }, 'publish failed'));
    },
    subscribe: local.subscribe,
    async close() {
      await local.close();
      await Promise.all([pub.quit(), sub.quit()].map((p) => p.catch(() => undefined)));
    },
  };
}
