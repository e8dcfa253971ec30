import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/app-env';
import { uuidParam } from '../http/current-user';
import { requireActor } from '../http/current-actor';
import { ok } from '../../common/envelope';
import { readBody } from '../http/validate';
import { textField } from '../../common/text';
import {
  apiKeyJson,
  apiKeyNotFound,
  createApiKey,
  listApiKeys,
  revokeAllApiKeys,
  revokeApiKey,
} from '../modules/api-keys/keys';
import { API_KEY_SCOPES } from '../../common/record-states';

export const createApiKeySchema = z
  .object({
    name: textField({ min: 1, max: 80, maxMessage: 'validation.nameMax' }),
    scope: z.enum(API_KEY_SCOPES).default('full'),
  })
  .strict();

/**
 * /self-api/v1/api-keys: a signed-in person's keys for the workspace they work in (a key cannot
 * manage keys: modules/api-keys/access).
 */
export function apiKeysApi() {
  const api = new Hono<AppEnv>();
  const db = (c: Context<AppEnv>) => c.get('deps').db;
  const deps = (c: Context<AppEnv>) => c.get('deps').services.apiKeys;

  api.get('/', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok({ items: (await listApiKeys(db(c), actor)).map(apiKeyJson) }));
  });

  // The key itself is in this answer only; it is stored hashed.
  api.post('/', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, createApiKeySchema);
    const { key, row } = await createApiKey(deps(c), actor, body);
    return c.json(ok({ ...apiKeyJson(row), key }));
  });

  // Every key of the account, in every workspace.
  api.delete('/', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok({ revoked: await revokeAllApiKeys(db(c), actor.user.id) }));
  });

  api.delete('/:id', async (c) => {
    const actor = await requireActor(c);
    await revokeApiKey(db(c), actor, uuidParam(c, 'id', apiKeyNotFound));
    return c.json(ok(null));
  });

  return api;
}
