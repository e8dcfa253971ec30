import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { askRequestSchema } from '../../common/ask';
import { ok } from '../../common/envelope';
import type { AppEnv } from '../http/app-env';
import { requireActor } from '../http/current-actor';
import { uuidParam } from '../http/current-user';
import { readBody } from '../http/validate';
import { ask, clearConversation, conversation } from '../modules/ask/conversation';
import { askEvents } from '../modules/ask/live';
import type { ScopeKind } from '../modules/ask/scope';
import type { ApiError } from '../modules/errors';
import { folderNotFound, transcriptNotFound } from '../modules/transcription/ownership';

const deps = (c: Context<AppEnv>) => c.get('deps').services.insights;

/**
 * Questions about a transcript (/transcripts/:id/…) or about the transcripts of a folder
 * (/folders/:id/…), answered with citations; one conversation per person and scope
 * (docs/decisions/0035-ask.md).
 */
export function askApi() {
  const api = new Hono<AppEnv>();
  const scopes: [string, ScopeKind, () => ApiError][] = [
    ['/transcripts', 'transcript', transcriptNotFound],
    ['/folders', 'folder', folderNotFound],
  ];
  for (const [prefix, kind, notFound] of scopes) {
    const idParam = (c: Context<AppEnv>) => uuidParam(c, 'id', notFound);

    api.post(`${prefix}/:id/ask`, async (c) => {
      const actor = await requireActor(c);
      const body = await readBody(c, askRequestSchema);
      return c.json(ok(await ask(deps(c), actor, kind, idParam(c), body.question)), 202);
    });

    api.get(`${prefix}/:id/conversation`, async (c) => {
      const actor = await requireActor(c);
      return c.json(ok(await conversation(deps(c), actor, kind, idParam(c))));
    });

    api.delete(`${prefix}/:id/conversation`, async (c) => {
      const actor = await requireActor(c);
      await clearConversation(deps(c), actor, kind, idParam(c));
      return c.json(ok({ cleared: true }));
    });

    // The answer on its way, as server-sent events: status, tokens, then the stored message.
    api.get(`${prefix}/:id/conversation/events`, async (c) => {
      const actor = await requireActor(c);
      const d = deps(c);
      const id = idParam(c);
      // Access is checked before the stream opens, so a refusal is an ordinary error answer.
      await conversation(d, actor, kind, id);
      c.header('Cache-Control', 'no-store');
      c.header('X-Accel-Buffering', 'no');
      return streamSSE(c, async (stream) => {
        const aborted = new AbortController();
        stream.onAbort(() => aborted.abort());
        for await (const message of askEvents(d, actor, kind, id, aborted.signal))
          await stream.writeSSE(message);
      });
    });
  }
  return api;
}
