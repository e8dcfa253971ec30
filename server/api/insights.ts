import { Hono, type Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { z } from 'zod';
import { ok } from '../../common/envelope';
import { INSIGHT_LANGUAGES, type InsightLanguage } from '../../common/insights';
import { LOCALES, type Locale } from '../../common/locales';
import type { AppEnv } from '../http/app-env';
import { requireActor } from '../http/current-actor';
import { uuidParam } from '../http/current-user';
import { readBody } from '../http/validate';
import { insightEvents } from '../modules/insights/live';
import { transcriptInsights } from '../modules/insights/read';
import { requestInsight } from '../modules/insights/request';
import { requestTemplateRun } from '../modules/insights/template-run';
import { transcriptNotFound } from '../modules/transcription/ownership';

/**
 * Asking for a summary, chapters or a template's output; the language defaults to the template's,
 * else the caller's interface language.
 */
export const insightRequestSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.enum(['summary', 'chapters']),
      language: z.enum(INSIGHT_LANGUAGES).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('template'),
      /** A built-in template's id (show-notes, blog-post, meeting-minutes, study-notes) or an own template's id. */
      template: z.string().min(1).max(64),
      language: z.enum(INSIGHT_LANGUAGES).optional(),
    })
    .strict(),
]);

const deps = (c: Context<AppEnv>) => c.get('deps').services.insights;
const idParam = (c: Context<AppEnv>) => uuidParam(c, 'id', transcriptNotFound);

/** The interface language of the caller, as a default output language. */
export function defaultLanguage(userLanguage: string): InsightLanguage {
  return (LOCALES as readonly string[]).includes(userLanguage) ? (userLanguage as Locale) : 'en';
}

/** /self-api/v1/transcripts/:id/insights: a transcript's AI outputs (docs/decisions/0033-insights.md). */
export function insightsApi() {
  const api = new Hono<AppEnv>();

  api.get('/:id/insights', async (c) => {
    const actor = await requireActor(c);
    return c.json(ok(await transcriptInsights(deps(c), actor, idParam(c))));
  });

  api.post('/:id/insights', async (c) => {
    const actor = await requireActor(c);
    const body = await readBody(c, insightRequestSchema);
    const insight =
      body.kind === 'template'
        ? await requestTemplateRun(deps(c), actor, idParam(c), {
            template: body.template,
            language: body.language,
            fallbackLanguage: defaultLanguage(actor.user.language),
          })
        : await requestInsight(deps(c), actor, idParam(c), {
            kind: body.kind,
            language: body.language ?? defaultLanguage(actor.user.language),
          });
    return c.json(ok(insight), 202);
  });

  // Progress and generated text of the transcript's AI outputs, until none is on its way.
  api.get('/:id/insights/events', async (c) => {
    const actor = await requireActor(c);
    const d = deps(c);
    const id = idParam(c);
    const first = await transcriptInsights(d, actor, id);
    c.header('Cache-Control', 'no-store');
    c.header('X-Accel-Buffering', 'no');
    return streamSSE(c, async (stream) => {
      const aborted = new AbortController();
      stream.onAbort(() => aborted.abort());
      for await (const message of insightEvents(d, actor, id, first, aborted.signal))
        await stream.writeSSE(message);
    });
  });

  return api;
}
