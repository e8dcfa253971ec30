import { sql } from 'drizzle-orm';
import { bearerMatches } from './http/bearer';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { compress } from 'hono/compress';
import { serveStatic } from '@hono/node-server/serve-static';
import type { PublicConfig, ServerContext, Viewer } from '../common/app-context';
import type { User } from './db/schema';
import { ErrorCode, httpStatusOf } from '../common/error-codes';
import { ApiError } from './modules/errors';
import { fail } from '../common/envelope';
import { requestLog } from './http/request-log';
import { readableErrors } from './http/readable-errors';
import { securityHeaders } from './http/security-headers';
import type { AppDeps, AppEnv } from './http/app-env';
import { pageRequestMiddleware } from './http/locale-middleware';
import { createPageCache, pageCacheMiddleware } from './http/page-cache';
import { sameOriginRedirects } from './http/same-origin-redirects';
import { isRefusedInput } from './http/db-errors';
import { outageAnswer } from './modules/outage-answer';
import { sessionToken } from './http/cookies';
import { getCookie } from 'hono/cookie';
import { WORKSPACE_COOKIE } from '../common/cookies';
import { workspaceCookie } from './http/current-actor';
import { listWorkspaces, workspaceJson } from './modules/workspaces/workspaces';
import { resolveActor, type Actor } from './modules/workspaces/actor';
import { userForToken } from './modules/auth/session-user';
import { mountApis } from './api/routes';
import { buildOpenApi } from './api/openapi';
import { renderDocsPage } from './api/docs-page';
import { errorText } from './modules/messages/error-text';
import { stripeWebhook } from './api/billing';
import { buildRobots, buildSitemap } from './modules/seo/sitemap';
import { legalText } from './modules/seo/content-files';
import { originCheck } from './http/origin-check';
import { apiCors } from './http/cors';
import { callOwnApi } from './http/internal-api';
import { decidePageFor } from './http/page-redirect';
import { UPLOAD_PATH } from './modules/uploads/uploads';
import { ownFolder, ownTranscript } from './modules/transcription/ownership';
import { folderJson, fullJson } from './modules/transcription/payload';
import { closedShare, openShare } from './modules/shares/shares';
import { UUID_RE } from '../common/validators';
import { LOCALES, splitLocalePath } from '../common/locales';
import type { TranscriptJson } from '../common/transcript-types';

const IMPORT_PATH = '/self-api/v1/transcripts/import';
/** A render background picture (5 MB, checked again by the module) is larger than a JSON call too. */
const BACKGROUND_PATH = '/self-api/v1/render-background';

export function createApp(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  const { env, logger, db } = deps;

  app.use('*', requestLog(logger));
  app.use(
    '*',
    securityHeaders({
      sources: {
        tagManager: !!env.GTM_ID,
        googleSignIn: !!env.GOOGLE_CLIENT_ID,
        apiOrigin: /^https?:\/\//.test(env.API_BASE_URL) ? new URL(env.API_BASE_URL).origin : null,
      },
      trustProxy: env.TRUST_PROXY,
      publicUrl: env.PUBLIC_URL,
      pagePolicy: !deps.viteDev,
    }),
  );
  app.use('*', sameOriginRedirects());
  app.use('*', async (c, next) => {
    c.set('deps', deps);
    await next();
  });
  app.use('*', readableErrors());

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      // The refusal's code encodes its HTTP status (40404 → 404).
      return c.json(fail(err.code, err.messageKey, err.data), httpStatusOf(err.code) as ContentfulStatusCode);
    }
    const outage = outageAnswer(err);
    if (outage) {
      c.get('log')?.warn(
        { err, outage: outage.kind },
        'a dependency is unavailable: asked the client to retry',
      );
      c.header('Retry-After', String(outage.retryAfter));
      return c.json(outage.body, outage.status);
    }
    if (isRefusedInput(err)) {
      c.get('log')?.warn({ err }, 'the database refused a value an input check let through');
      return c.json(fail(ErrorCode.VALIDATION, 'errors.api.validation'), 422);
    }
    c.get('log')?.error({ err }, 'unhandled error');
    return c.json(fail(ErrorCode.INTERNAL, 'errors.api.internal'), 500);
  });

  // Liveness: this process answers (and its embedded database, which lives inside it). PostgreSQL,
  // Redis or the bucket being away is readiness's business: restarting this process would not help.
  app.get('/healthz', async (c) => {
    c.header('Cache-Control', 'no-store');
    if (env.DATABASE_URL) return c.json({ status: 'ok', build: deps.build.id });
    try {
      await db.execute(sql`select 1`);
      return c.json({ status: 'ok', build: deps.build.id });
    } catch {
      return c.json({ status: 'degraded', build: deps.build.id }, 503);
    }
  });
  // Readiness: whether to send this process work, and which dependency is down when not.
  app.get('/readyz', async (c) => {
    c.header('Cache-Control', 'no-store');
    const r = await deps.services.ops.readiness();
    return c.json({ status: r.ready ? 'ready' : 'unavailable', checks: r.checks }, r.ready ? 200 : 503);
  });
  app.get('/metrics', async (c) => {
    if (!env.METRICS_TOKEN) return c.json(fail(ErrorCode.NOT_FOUND, 'errors.api.notFound'), 404);
    if (!bearerMatches(c.req.header('authorization'), env.METRICS_TOKEN)) {
      c.header('WWW-Authenticate', 'Bearer');
      return c.json(fail(ErrorCode.UNAUTHORIZED, 'errors.api.unauthorized'), 401);
    }
    c.header('Cache-Control', 'no-store');
    c.header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8');
    return c.body(await deps.services.ops.metrics());
  });

  app.get('/builds/latest.json', (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(deps.build);
  });

  const tooLarge = (c: Context) => c.json(fail(ErrorCode.PAYLOAD_TOO_LARGE, 'errors.api.tooLarge'), 413);
  const apiLimit = bodyLimit({ maxSize: env.BODY_LIMIT_BYTES, onError: tooLarge });
  // Caption files can be larger than a JSON call; media goes through tus, which streams.
  const importLimit = bodyLimit({ maxSize: 11 * 1024 * 1024, onError: tooLarge });
  const sameOrigin = originCheck(env.PUBLIC_URL, env.CORS_ORIGINS);
  const crossOrigin = env.CORS_ORIGINS.length ? apiCors(env.CORS_ORIGINS) : null;
  for (const prefix of ['/common-api/*', '/self-api/*']) {
    if (crossOrigin) {
      // tus answers its own CORS (uploads.ts), with the same origins.
      app.use(prefix, (c, next) => (c.req.path.startsWith(UPLOAD_PATH) ? next() : crossOrigin(c, next)));
    }
    app.use(prefix, (c, next) => {
      if (c.req.path === UPLOAD_PATH || c.req.path.startsWith(`${UPLOAD_PATH}/`)) return next();
      if (c.req.path === IMPORT_PATH || c.req.path === BACKGROUND_PATH) return importLimit(c, next);
      return apiLimit(c, next);
    });
    app.use(prefix, sameOrigin);
  }
  // Stripe signs the raw body; 1 MB is far above any event it sends.
  app.use('/webhooks/*', bodyLimit({ maxSize: 1_048_576, onError: tooLarge }));
  app.route('/webhooks/stripe', stripeWebhook());
  const uploads = deps.services.transcription.uploads;
  app.all(UPLOAD_PATH, (c) => uploads.handle(c.req.raw));
  app.all(`${UPLOAD_PATH}/*`, (c) => uploads.handle(c.req.raw));
  mountApis(app);
  // The API's description, generated from the mounted routes and their zod schemas (built once).
  let openApi: ReturnType<typeof buildOpenApi> | null = null;
  const apiDoc = () =>
    (openApi ??= buildOpenApi(app.routes, { title: env.APP_NAME, version: deps.build.id }));
  app.get('/api/openapi.json', (c) => c.json(apiDoc()));
  // The reference in the site's languages, chosen as for every page (decidePage, decision 0003):
  // the path's prefix, a remembered language, then the browser's; crawlers get what they asked for.
  const docsPage = async (c: Context<AppEnv>) => {
    const url = new URL(c.req.url);
    const decision = await decidePageFor(c, deps.services.seo.rules, url);
    for (const cookie of decision.cookies) c.header('Set-Cookie', cookie, { append: true });
    c.header('Vary', 'Cookie, Accept-Language');
    if (decision.redirect) return c.redirect(decision.redirect.location, decision.redirect.status);
    c.header('Cache-Control', 'private, max-age=300');
    const lang = splitLocalePath(url.pathname).lang;
    // The examples' refusals read as the API would answer a caller of this language.
    const [validation, required, unauthorized, notFound] = await Promise.all(
      ['errors.api.validation', 'validation.required', 'errors.api.unauthorized', 'errors.api.notFound'].map(
        (key) => errorText(lang, key, null),
      ),
    );
    return c.html(
      renderDocsPage(apiDoc(), lang, env.APP_NAME, {
        origin: env.PUBLIC_URL?.replace(/\/$/, '') ?? url.origin,
        errors: {
          validation: validation!,
          required: required!,
          unauthorized: unauthorized!,
          notFound: notFound!,
        },
      }),
    );
  };
  app.get('/api/docs', docsPage);
  app.get(`/:lang{${LOCALES.join('|')}}/api/docs`, docsPage);
  app.all('/common-api/*', (c) => c.json(fail(ErrorCode.NOT_FOUND, 'errors.api.notFound'), 404));
  app.all('/self-api/*', (c) => c.json(fail(ErrorCode.NOT_FOUND, 'errors.api.notFound'), 404));

  // Pages and their assets go out compressed; API calls, media ranges and event streams do not.
  const compressed = compress();
  app.use('*', (c, next) => {
    const p = c.req.path;
    if (p.startsWith('/self-api/') || p.startsWith('/common-api/') || p.startsWith('/webhooks/'))
      return next();
    return compressed(c, next);
  });

  if (deps.staticDir) {
    const root = deps.staticDir;
    app.use(
      '/assets/*',
      serveStatic({
        root,
        onFound: (_p, c) => c.header('Cache-Control', 'public, max-age=31536000, immutable'),
      }),
    );
    app.use(
      '*',
      serveStatic({ root, onFound: (_p, c) => c.header('Cache-Control', 'public, max-age=3600') }),
    );
  }

  const config: PublicConfig = {
    appName: env.APP_NAME,
    apiBaseUrl: env.API_BASE_URL,
    publicUrl: env.PUBLIC_URL ?? null,
    gtmId: env.GTM_ID ?? null,
    googleClientId: env.GOOGLE_CLIENT_ID ?? null,
    buildId: deps.build.id,
    affiliate: {
      percent: env.AFFILIATE_COMMISSION_PERCENT,
      windowMonths: env.AFFILIATE_WINDOW_MONTHS,
      holdDays: env.AFFILIATE_HOLD_DAYS,
      minPayout: env.AFFILIATE_MIN_PAYOUT,
    },
  };

  const seo = deps.services.seo;
  const origin = (c: Context) => env.PUBLIC_URL?.replace(/\/$/, '') ?? new URL(c.req.url).origin;
  app.get('/sitemap.xml', async (c) => {
    c.header('Content-Type', 'application/xml; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(buildSitemap(origin(c), await seo.tools.catalogue()));
  });
  app.get('/robots.txt', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.text(buildRobots(origin(c)));
  });

  if (deps.ssr) {
    const ssr = deps.ssr;
    // Route rules, then the language (decidePage); the `:lang?` loader asks the same on client navigations.
    app.use('*', pageRequestMiddleware(seo.rules));
    // A form posted to a page (before hydration) gets the API's cross-site check before the route's action.
    app.use('*', sameOrigin);
    if (env.NODE_ENV === 'production' && env.PAGE_CACHE_MB > 0) {
      const cache = createPageCache({
        buildId: deps.build.id,
        maxBytes: env.PAGE_CACHE_MB * 1024 * 1024,
        contentVersion: () => Promise.all([seo.tools.catalogue(), seo.rules.current()]),
      });
      app.use('*', pageCacheMiddleware(cache, deps.build.id));
    }
    app.all('*', async (c) => {
      // One session lookup per request, shared by the guard and the page's loader.
      let session: Promise<User | null> | undefined;
      const userOf = () => (session ??= userForToken(db, sessionToken(c)));
      // ?workspace=<id> on a page switches to that workspace (a member's only) and remembers it.
      const asked = new URL(c.req.url).searchParams.get('workspace');
      const remembered = getCookie(c, WORKSPACE_COOKIE) ?? null;
      let viewer: Promise<Viewer | null> | undefined;
      const viewerOfRequest = () =>
        (viewer ??= userOf().then(async (user) => {
          if (!user) return null;
          const rows = await listWorkspaces(deps.services.workspaces, user);
          return viewerOf(user, rows, asked ?? remembered);
        }));
      let actor: Promise<Actor | null> | undefined;
      const actorOf = () =>
        (actor ??= userOf().then((user) =>
          user ? resolveActor(db, { user }, { cookie: asked ?? remembered }).catch(() => null) : null,
        ));
      const context: ServerContext = {
        requestId: c.get('requestId'),
        cspNonce: c.get('cspNonce') ?? '',
        config,
        getViewer: viewerOfRequest,
        // Objects by id, through the membership of their workspace (decision 0027), as the API.
        getTranscript: async (id) => {
          const actor = await actorOf();
          if (!actor || !UUID_RE.test(id)) return null;
          const row = await ownTranscript(deps.services.transcription, actor, id).catch(() => null);
          return row ? ((await fullJson(deps.services.transcription, row)) as TranscriptJson) : null;
        },
        getFolder: async (id) => {
          const actor = await actorOf();
          if (!actor || !UUID_RE.test(id)) return null;
          const row = await ownFolder(deps.services.transcription, actor, id).catch(() => null);
          return row ? folderJson(row) : null;
        },
        getSharedTranscript: (id, shareId) => openShare(deps.services.transcription, id, shareId),
        getClosedShare: (id, shareId) => closedShare(deps.services.transcription, id, shareId),
        getPlans: () => deps.services.billing.plans(),
        getToolPage: async (lang, slug) => (await seo.tools.catalogue()).page(lang, slug),
        getFooterTools: async (lang) => (await seo.tools.catalogue()).footer(lang),
        getLegal: async (doc, lang) => legalText(doc, lang),
        callApi: (method, path, body) => callOwnApi(app, c, method, path, body),
        pageRedirect: async (address) => {
          const decision = await decidePageFor(c, seo.rules, new URL(address, c.req.url));
          return decision.redirect ? { ...decision.redirect, cookies: decision.cookies } : null;
        },
      };
      const res = await ssr(c.req.raw, context);
      const chosen = viewer && (await viewer)?.workspace.id;
      if (!asked || chosen !== asked || asked === remembered) return res;
      const headers = new Headers(res.headers);
      headers.append('Set-Cookie', workspaceCookie(c, asked));
      return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
    });
  }

  return app;
}

/** The signed-in viewer with their workspaces; the current one is `chosen` when it is theirs. */
function viewerOf(
  user: User,
  rows: Awaited<ReturnType<typeof listWorkspaces>>,
  chosen: string | null,
): Viewer {
  const all = rows.map((r) => workspaceJson(r.workspace, r.role));
  const current = all.find((w) => w.id === chosen) ?? all.find((w) => w.kind === 'personal') ?? all[0]!;
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    rank_name: user.rankName,
    language: user.language,
    workspace: current,
    workspaces: all,
  };
}
