import { Hono, type Context } from 'hono';
import { ok } from '../../common/envelope';
import { templateInputSchema } from '../../common/ai-templates';
import type { AppEnv } from '../http/app-env';
import { requireActor } from '../http/current-actor';
import { readBody } from '../http/validate';
import {
  createTemplate,
  deleteTemplate,
  listTemplates,
  updateTemplate,
} from '../modules/ai-templates/templates';

/** /self-api/v1/ai-templates: the current workspace's AI templates (docs/decisions/0037-ai-templates.md). */
export function aiTemplatesApi() {
  const api = new Hono<AppEnv>();
  const db = (c: Context<AppEnv>) => c.get('deps').db;
  const now = (c: Context<AppEnv>) => c.get('deps').services.insights.now();

  api.get('/', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok(await listTemplates(db(c), actor)));
  });

  api.post('/', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, templateInputSchema);
    return c.json(ok(await createTemplate(db(c), actor, body, now(c))), 201);
  });

  api.patch('/:id', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, templateInputSchema);
    return c.json(ok(await updateTemplate(db(c), actor, c.req.param('id'), body, now(c))));
  });

  api.delete('/:id', async (c) => {
    const actor = await requireActor(c);
    await deleteTemplate(db(c), actor, c.req.param('id'));
    return c.json(ok({ deleted: true }));
  });

  return api;
}
