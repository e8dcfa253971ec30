// The answer on its way in a conversation, as server-sent events: its status and the text as the
// model writes it (channel ask:<answer id>, in process or over Redis with workers), then the
// stored answer. Only the asker's own answer: the channel is named by an id only they are given.
import { eq } from 'drizzle-orm';
import type { AskEvent } from '../../../common/ask';
import { askMessages } from '../../db/schema';
import type { TranscriptEvent } from '../jobs/events';
import { followChannel } from '../jobs/channel-follower';
import { askForResend } from '../jobs/streamed-writer';
import type { Actor } from '../workspaces/actor';
import { messageJson, pendingAnswer, type AskDeps } from './conversation';
import { askChannel } from './run';
import { scopeFor, type ScopeKind } from './scope';

export interface AskMessageEvent {
  event: 'status' | 'token' | 'message' | 'ping';
  data: string;
}

const isAskEvent = (e: TranscriptEvent): e is AskEvent => e.type === 'ask' || e.type === 'ask-token';

/** A quiet stream looks at the row this often: an event missed on the way never leaves it open. */
const CHECK_MS = 15_000;

export async function* askEvents(
  deps: Pick<AskDeps, 'db' | 'now' | 'events'>,
  actor: Actor,
  kind: ScopeKind,
  id: string,
  signal: AbortSignal,
): AsyncGenerator<AskMessageEvent> {
  const scope = await scopeFor(deps.db, actor, kind, id);
  const row = await pendingAnswer(deps, scope);
  if (!row) return;
  const follower = followChannel(deps.events, askChannel(row.id), isAskEvent, signal);
  // Text written before this stream listened comes again, once, as a piece at 0.
  askForResend(deps.events, askChannel(row.id));
  const stored = async () => {
    const [now] = await deps.db.select().from(askMessages).where(eq(askMessages.id, row.id));
    return now ?? null;
  };
  try {
    // Subscribed first, then looked at: an answer finished in between is not missed.
    const first = await stored();
    if (!first || first.status === 'done' || first.status === 'failed') {
      if (first) yield { event: 'message', data: JSON.stringify(messageJson(first)) };
      return;
    }
    yield { event: 'status', data: JSON.stringify({ id: row.id, status: first.status }) };
    for (;;) {
      const batch = await follower.next(CHECK_MS);
      if (batch === null) return;
      if (batch.length === 0) {
        const now = await stored();
        if (!now || now.status === 'done' || now.status === 'failed') {
          if (now) yield { event: 'message', data: JSON.stringify(messageJson(now)) };
          return;
        }
        yield { event: 'ping', data: '{}' };
        continue;
      }
      for (const event of batch) {
        if (event.type === 'ask-token') {
          yield { event: 'token', data: JSON.stringify(event) };
          continue;
        }
        if (event.status === 'done' || event.status === 'failed') {
          const now = await stored();
          if (now) yield { event: 'message', data: JSON.stringify(messageJson(now)) };
          return;
        }
        yield { event: 'status', data: JSON.stringify(event) };
      }
    }
  } finally {
    follower.close();
  }
}
