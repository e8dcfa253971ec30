import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../app';
import { ApiError, ErrorCode, ok } from '../http/envelope';
import { sessionToken } from '../http/cookies';
import { readBody, readQuery } from '../http/validate';
import { userForToken } from '../modules/auth/session-user';
import {
  createFolder,
  deleteFolder,
  listFolders,
  ownFolder,
  renameFolder,
} from '../modules/transcription/folders';
import type { Folder } from '../db/schema';
import { UUID_RE } from '../../common/validators';

const name = z.string().trim().min(1, 'validation.required').max(100, 'validation.nameMax');

export function folderJson(f: Pick<Folder, 'id' | 'name' | 'createdAt'> & { count?: number }) {
  return {
    id: f.id,
    name: f.name,
    created_at: f.createdAt.toISOString(),
    ...(f.count !== undefined ? { transcript_count: Number(f.count) } : {}),
  };
}

/** /self-api/v1/folders: the caller's folders (one level). */
export function foldersApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>) => c.get('deps').services.transcription;
  const currentUser = async (c: Context<AppEnv>) => {
    const user = await userForToken(c.get('deps').db, sessionToken(c));
    if (!user) throw new ApiError(ErrorCode.UNAUTHORIZED, 'errors.api.unauthorized');
    return user;
  };
  const idParam = (c: Context<AppEnv>) => {
    const id = c.req.param('id') ?? '';
    if (!UUID_RE.test(id)) throw new ApiError(40406, 'errors.transcripts.folderNotFound', 404);
    return id;
  };

  api.get('/', async (c) => {
    const user = await currentUser(c);
    return c.json(ok({ items: (await listFolders(deps(c), user)).map(folderJson) }));
  });
  api.post('/', async (c) => {
    const user = await currentUser(c);
    const body = await readBody(c, z.object({ name }).strict());
    return c.json(ok(folderJson(await createFolder(deps(c), user, body.name))));
  });
  api.get('/:id', async (c) => {
    const user = await currentUser(c);
    return c.json(ok(folderJson(await ownFolder(deps(c), user, idParam(c)))));
  });
  api.patch('/:id', async (c) => {
    const user = await currentUser(c);
    const id = idParam(c);
    const body = await readBody(c, z.object({ name }).strict());
    return c.json(ok(folderJson(await renameFolder(deps(c), user, id, body.name))));
  });
  api.delete('/:id', async (c) => {
    const user = await currentUser(c);
    const id = idParam(c);
    const { contents } = readQuery(c, z.object({ contents: z.enum(['move', 'delete']).default('move') }));
    await deleteFolder(deps(c), user, id, contents);
    return c.json(ok(null));
  });
  return api;
}
