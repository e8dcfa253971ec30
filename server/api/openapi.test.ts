import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { openApiPath, ROUTE_DOCS } from './openapi';

let h: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  h = await testApp({}, { DATA_DIR: 'tmp/test-data-openapi' });
});
afterAll(async () => h?.close());

type Doc = { openapi: string; paths: Record<string, Record<string, any>> };

describe('/api/openapi.json', () => {
  it('describes every /self-api/v1 route the app mounts', async () => {
    const res = await h.app.request('/api/openapi.json');
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Doc;
    expect(doc.openapi).toBe('3.1.0');
    const mounted = h.app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/self-api/v1/'))
      .map((r) => `${r.method} ${openApiPath(r.path)}`);
    expect(mounted.length).toBeGreaterThan(40);
    const missing = mounted.filter((k) => {
      const [method, path] = k.split(' ') as [string, string];
      return !doc.paths[path]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
  });

  it("takes bodies and queries from the handlers' zod schemas", async () => {
    const doc = (await (await h.app.request('/api/openapi.json')).json()) as Doc;
    const create = doc.paths['/self-api/v1/transcripts']!.post.requestBody.content['application/json'].schema;
    expect(create.required).toContain('upload_id');
    expect(create.properties.detect_speech).toMatchObject({ type: 'boolean', default: true });
    const hook = doc.paths['/self-api/v1/webhooks']!.post.requestBody.content['application/json'].schema;
    expect(hook.properties.events.items.enum).toEqual([
      'transcript.completed',
      'transcript.failed',
      'transcript.deleted',
      'summary.completed',
      'member.added',
      'comment.created',
      'translation.completed',
    ]);
    const exportParams = doc.paths['/self-api/v1/transcripts/{id}/export']!.get.parameters;
    expect(exportParams.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['id', 'format']),
    );
    expect(doc.paths['/self-api/v1/api-keys']!.post.security).toEqual([{ session: [] }]);
  });
});

describe('/api/openapi.json examples', () => {
  it('gives every documented answer an example its own schema accepts, and errors typical refusals', async () => {
    const doc = (await (await h.app.request('/api/openapi.json')).json()) as Doc;
    let documented = 0;
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const json = op.responses['200'].content?.['application/json'];
        const response = ROUTE_DOCS[`${method.toUpperCase()} ${path}`]?.response;
        if (response) {
          documented++;
          expect(json.example, `${method} ${path}`).toMatchObject({ code: 200, message: 'ok' });
          expect(response.safeParse(json.example.data).success, `${method} ${path}`).toBe(true);
        } else if (json) expect(json.example, `${method} ${path}`).toBeUndefined();
        const refusals = op.responses.default.content['application/json'].examples;
        expect(refusals.validation.value).toMatchObject({
          code: 422,
          message_key: 'errors.api.validation',
          data: { fields: { url: expect.stringMatching(/^Enter /) }, field_keys: { url: 'validation.url' } },
        });
        expect(refusals.plan.value.message).not.toMatch(/^errors\./);
      }
    }
    expect(documented).toBeGreaterThan(0);
  });
});

describe('/api/docs', () => {
  it('is one server-rendered page with no script and nothing from another site', async () => {
    const res = await h.app.request('/api/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('/self-api/v1/transcripts/{id}/export');
    expect(html).toContain('Send a test event now');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });

  it('shows each operation with an example request, its answer and a refusal, and leads back to the app', async () => {
    const html = await (await h.app.request('/api/docs')).text();
    const articles = html.match(/<article /g)!.length;
    expect(html.match(/<details class="ex">/g)!.length).toBe(articles);
    // The request is a curl command built from the handler's own schema.
    expect(html).toContain("curl -X POST 'http://localhost/self-api/v1/transcripts/from-link'");
    expect(html).toContain("-H 'Authorization: Bearer csk_…'");
    expect(html).toContain(
      "-d '{&quot;name&quot;:&quot;Interview with Ada&quot;,&quot;url&quot;:&quot;https://example.com/talk.mp4&quot;}'",
    );
    // A documented answer is filled in; a refusal shows the error envelope.
    expect(html).toContain('&quot;total&quot;');
    expect(html).toContain('&quot;message_key&quot;: &quot;errors.api.validation&quot;');
    // A refused field reads as a sentence beside its stable key, as the API answers.
    expect(html).toContain('&quot;name&quot;: &quot;This field is required.&quot;');
    expect(html).toContain('&quot;field_keys&quot;');
    expect(html).toContain('&quot;message&quot;: &quot;Please log in to continue.&quot;');
    expect(html).toContain('href="/dashboard" data-testid="docs-back"');
    const de = await (await h.app.request('/de/api/docs')).text();
    expect(de).toContain('href="/de/dashboard" data-testid="docs-back">← Zurück zu');
    expect(de).toContain('&quot;message&quot;: &quot;Bitte melden Sie sich an, um fortzufahren.&quot;');
  });
});

describe('/api/docs in the ten languages', () => {
  it('has its page chrome in the language of the path, the operations as the document says', async () => {
    const res = await h.app.request('/de/api/docs');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain('API-Referenz');
    expect(html).toContain('<h2>Transkripte</h2>');
    expect(html).toContain('API-Schlüssel oder Sitzung');
    // Operation summaries come from the schemas, unchanged.
    expect(html).toContain('Transcribe a finished tus upload');
    expect(html).toContain('hreflang="zh-Hant" href="/tw/api/docs"');
    const zh = await (await h.app.request('/zh/api/docs')).text();
    expect(zh).toContain('<html lang="zh-Hans">');
    expect(zh).toContain('API 参考文档');
  });

  it('picks the language like every page: remembered, then the browser, English for crawlers', async () => {
    const first = await h.app.request('/api/docs', { headers: { 'accept-language': 'ja,en;q=0.5' } });
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe('/ja/api/docs');
    expect(first.headers.get('set-cookie')).toContain('i18n_redirected=ja');
    const remembered = await h.app.request('/api/docs', {
      headers: { cookie: 'i18n_redirected=ko', 'accept-language': 'ja' },
    });
    expect(remembered.headers.get('location')).toBe('/ko/api/docs');
    const english = await h.app.request('/en/api/docs');
    expect(english.status).toBe(301);
    expect(english.headers.get('location')).toBe('/api/docs');
    const bot = await h.app.request('/api/docs', {
      headers: { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)', 'accept-language': 'de' },
    });
    expect(bot.status).toBe(200);
    expect(await bot.text()).toContain('<html lang="en">');
  });
});
