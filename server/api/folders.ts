import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/app-env';
import { uuidParam } from '../http/current-user';
import { requireActor } from '../http/current-actor';
import { folderNotFound, ownFolder } from '../modules/transcription/ownership';
import { ok } from '../../common/envelope';
import { readBody, readQuery } from '../http/validate';
import { createFolder, deleteFolder, listFolders, renameFolder } from '../modules/transcription/folders';
import { folderJson } from '../modules/transcription/payload';
import { textField } from '../../common/text';

const name = textField({ min: 1, max: 100, maxMessage: 'validation.nameMax' });
export const folderSchema = z.object({ name }).strict();
export const folderDeleteQuery = z.object({ contents: z.enum(['move', 'delete']).default('move') });

/** /self-api/v1/folders: the caller's folders (one level). */
export function foldersApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>) => c.get('deps').services.transcription;
  const idParam = (c: Context<AppEnv>) => uuidParam(c, 'id', folderNotFound);

  api.get('/', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok({ items: (await listFolders(deps(c), actor)).map(folderJson) }));
  });
  api.post('/', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, folderSchema);
    return c.json(ok(folderJson(await createFolder(deps(c), actor, body.name))));
  });
  api.get('/:id', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok(folderJson(await ownFolder(deps(c), actor, idParam(c)))));
  });
  api.patch('/:id', async (c) => {
    const actor = await requireActor(c);
    const id = idParam(c);
    const body = await readBody(c, folderSchema);
    return c.json(ok(folderJson(await renameFolder(deps(c), actor, id, body.name))));
  });
  api.delete('/:id', async (c) => {
    const actor = await requireActor(c);
    const id = idParam(c);
    const { contents } = readQuery(c, folderDeleteQuery);
    await deleteFolder(deps(c), actor, id, contents);
    return c.json(ok(null));
  });
  return api;
}
