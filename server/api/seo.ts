import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { LOCALES } from '../../common/locales';
import { toolSlugOf } from '../../common/tool-content';
import type { AppEnv } from '../http/app-env';
import { SeoCode } from '../../common/error-codes';
import { ApiError } from '../modules/errors';
import { ok } from '../../common/envelope';
import { readQuery } from '../http/validate';

const lang = z.enum(LOCALES, { message: 'errors.seo.badLang' });
export const footerQuery = z.object({ lang });
export const pageQuery = z.object({
  lang,
  path: z.string().min(1, 'errors.seo.badPath').max(300, 'errors.seo.badPath'),
});

const tools = (c: Context<AppEnv>) => c.get('deps').services.seo.tools;

/** /self-api/v1/seo-landing: the public /tools pages' data. */
export function seoApi() {
  const api = new Hono<AppEnv>();
  api.get('/check-page', async (c) => {
    const q = readQuery(c, pageQuery);
    return c.json(ok({ count: await tools(c).count(q.lang, q.path) }));
  });
  api.get('/info', async (c) => {
    const q = readQuery(c, pageQuery);
    const slug = toolSlugOf(q.path);
    const page = slug ? (await tools(c).catalogue()).page(q.lang, slug) : null;
    if (!page) throw new ApiError(SeoCode.PAGE_NOT_FOUND, 'errors.seo.pageNotFound', { path: q.path });
    return c.json(ok(page));
  });
  api.get('/footer-tools', async (c) => {
    const q = readQuery(c, footerQuery);
    return c.json(ok((await tools(c).catalogue()).footer(q.lang)));
  });
  return api;
}
