import { Hono } from 'hono';
import type { AppEnv } from '../app';
import { ok } from '../http/envelope';
import { LOCALES } from '../../common/locales';
import { foldersApi } from './folders';
import { transcriptsApi } from './transcripts';
import { exportsApi } from './exports';
import { sharesApi } from './shares';
import { billingApi } from './billing';
import { seoApi } from './seo';

/** /self-api/v1: product calls (transcripts, SEO landing pages, …). */
export function selfApi() {
  const api = new Hono<AppEnv>();
  api.get('/locales', (c) => c.json(ok({ locales: LOCALES })));
  api.route('/transcripts', transcriptsApi());
  api.route('/', exportsApi());
  api.route('/', sharesApi());
  api.route('/folders', foldersApi());
  api.route('/billing', billingApi());
  api.route('/seo-landing', seoApi());
  return api;
}
