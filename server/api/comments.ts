import { Hono, type Context } from 'hono';
import type { AppEnv } from '../http/app-env';
import { uuidParam } from '../http/current-user';
import { requireActor } from '../http/current-actor';
import { requestMeta } from '../http/request-meta';
import { ok } from '../../common/envelope';
import { readBody } from '../http/validate';
import { commentEditSchema, commentResolveSchema, commentSchema } from '../../common/comments';
import {
  addComment,
  commentNotFound,
  deleteComment,
  editComment,
  listComments,
  resolveComment,
  transcriptActivity,
} from '../modules/comments/comments';
import type { CommentDeps } from '../modules/comments/deps';
import { transcriptNotFound } from '../modules/transcription/ownership';

/**
 * Under /self-api/v1/transcripts/:id: its comments (members who may read it read them; viewers
 * and up write them) and its activity.
 */
export function commentsApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): CommentDeps => c.get('deps').services.comments;
  const transcriptId = (c: Context<AppEnv>) => uuidParam(c, 'id', transcriptNotFound);
  const commentId = (c: Context<AppEnv>) => uuidParam(c, 'commentId', commentNotFound);

  api.get('/transcripts/:id/comments', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok({ items: await listComments(deps(c), actor, transcriptId(c)) }));
  });

  // A mention's mail links to the page on this site's address.
  api.post('/transcripts/:id/comments', async (c) => {
    const actor = await requireActor(c);
    const id = transcriptId(c);
    const body = await readBody(c, commentSchema);
    const { env } = c.get('deps');
    const meta = requestMeta(c, { trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL });
    return c.json(ok(await addComment(deps(c), actor, id, body, meta.origin)));
  });

  api.patch('/transcripts/:id/comments/:commentId', async (c) => {
    const actor = await requireActor(c);
    const [id, comment] = [transcriptId(c), commentId(c)];
    const body = await readBody(c, commentEditSchema);
    return c.json(ok(await editComment(deps(c), actor, id, comment, body.body)));
  });

  api.delete('/transcripts/:id/comments/:commentId', async (c) => {
    const actor = await requireActor(c);
    await deleteComment(deps(c), actor, transcriptId(c), commentId(c));
    return c.json(ok(null));
  });

  api.post('/transcripts/:id/comments/:commentId/resolve', async (c) => {
    const actor = await requireActor(c);
    const [id, comment] = [transcriptId(c), commentId(c)];
    const body = await readBody(c, commentResolveSchema);
    return c.json(ok(await resolveComment(deps(c), actor, id, comment, body.resolved)));
  });

  api.get('/transcripts/:id/activity', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok({ items: await transcriptActivity(deps(c), actor, transcriptId(c)) }));
  });

  return api;
}
