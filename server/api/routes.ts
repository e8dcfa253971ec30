import type { Hono } from 'hono';
import type { AppEnv } from '../http/app-env';
import { ok } from '../../common/envelope';
import { LOCALES } from '../../common/locales';
import { accountsApi } from './accounts';
import { apiKeysApi } from './api-keys';
import { webhooksApi } from './webhooks';
import { affiliateApi } from './affiliate';
import { billingApi } from './billing';
import { exportsApi } from './exports';
import { foldersApi } from './folders';
import { seoApi } from './seo';
import { sharesApi } from './shares';
import { rendersApi } from './renders';
import { translationsApi } from './translations';
import { transcriptsApi } from './transcripts';
import { insightsApi } from './insights';
import { aiTemplatesApi } from './ai-templates';
import { invitationsApi, workspacesApi } from './workspaces';
import { commentsApi } from './comments';
import { askApi } from './ask';

/**
 * Where each domain's API is mounted. The two prefixes (docs/product.md#the-api): /common-api/v1 for
 * account-level calls (accounts, the affiliate programme under /distribution), /self-api/v1 for
 * the product (transcripts, folders, exports, shares, billing, SEO landing pages).
 */
export function mountApis(app: Hono<AppEnv>) {
  app.route('/common-api/v1/distribution', affiliateApi());
  app.route('/common-api/v1', accountsApi());

  app.get('/self-api/v1/locales', (c) => c.json(ok({ locales: LOCALES })));
  app.route('/self-api/v1/transcripts', transcriptsApi());
  app.route('/self-api/v1/transcripts', insightsApi());
  app.route('/self-api/v1/ai-templates', aiTemplatesApi());
  app.route('/self-api/v1', exportsApi());
  app.route('/self-api/v1', sharesApi());
  app.route('/self-api/v1', commentsApi());
  app.route('/self-api/v1', askApi());
  app.route('/self-api/v1', rendersApi());
  app.route('/self-api/v1', translationsApi());
  app.route('/self-api/v1/folders', foldersApi());
  app.route('/self-api/v1/billing', billingApi());
  app.route('/self-api/v1/seo-landing', seoApi());
  app.route('/self-api/v1/api-keys', apiKeysApi());
  app.route('/self-api/v1/webhooks', webhooksApi());
  app.route('/self-api/v1/workspaces', workspacesApi());
  app.route('/self-api/v1/invitations', invitationsApi());
}
