import { LOCALE_NAMES, LOCALE_TAGS, LOCALES, localizePath, type Locale } from '../../common/locales';
import { DOCS_STRINGS, type DocsStrings } from './docs-strings';
import type { buildOpenApi } from './openapi';
import { curlExample, firstField } from './docs-examples';

// /api/docs (/de/api/docs …): the OpenAPI document as one server-rendered page, its chrome in the
// visitor's language (docs-strings.ts), the operations' summaries and schemas as the document has
// them. No script and nothing from another site, so it works under the strictest CSP and offline.

type Doc = ReturnType<typeof buildOpenApi>;

const esc = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const METHOD_COLOR: Record<string, string> = {
  get: '#0369a1',
  post: '#15803d',
  patch: '#a16207',
  put: '#a16207',
  delete: '#b91c1c',
};

interface Op {
  tags: string[];
  summary: string;
  operationId: string;
  parameters: { name: string; in: string; required: boolean; schema: unknown }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  security: Record<string, unknown>[];
  responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>;
}

/** The error answers the examples show, their messages already in the page's language. */
export type DocsErrorMessages = Record<'validation' | 'required' | 'unauthorized' | 'notFound', string>;

/** One operation's example answers: success (JSON or a file) and a typical refusal. */
function examples(
  method: string,
  path: string,
  op: Op,
  s: DocsStrings,
  origin: string,
  errors: DocsErrorMessages,
) {
  const request = curlExample({ method, path, ...op }, origin);
  const success = op.responses['200']?.content ?? {};
  const file = Object.keys(success).find((type) => type !== 'application/json');
  let answer: string;
  if (file) answer = `HTTP 200 · Content-Type: ${file}`;
  else {
    // The document's own example where it documents data (openapi.ts), so both show the same.
    const example = success['application/json']?.example;
    answer = example
      ? JSON.stringify(example, null, 2)
      : `{\n  "code": 200,\n  "message": "ok",\n  "data": …\n}\n// ${s.dataNote}`;
  }
  const field = firstField({ method, path, ...op });
  const refusal = field
    ? {
        status: 422,
        body: {
          code: 422,
          message: errors.validation,
          message_key: 'errors.api.validation',
          data: { fields: { [field]: errors.required }, field_keys: { [field]: 'validation.required' } },
        },
      }
    : op.security.length
      ? {
          status: 401,
          body: {
            code: 401,
            message: errors.unauthorized,
            message_key: 'errors.api.unauthorized',
            data: null,
          },
        }
      : {
          status: 404,
          body: { code: 404, message: errors.notFound, message_key: 'errors.api.notFound', data: null },
        };
  return `<details class="ex"><summary>${esc(s.examples)}</summary><p class="label">${esc(s.exampleRequest)}</p><pre>${esc(request)}</pre><p class="label">${esc(s.exampleAnswer)}</p><pre>${esc(answer)}</pre><p class="label">${esc(fill(s.errorAnswer, { status: String(refusal.status) }))}</p><pre>${esc(JSON.stringify(refusal.body, null, 2))}</pre></details>`;
}

const fill = (text: string, values: Record<string, string>) =>
  text.replace(/\{\{(\w+)\}\}/g, (m, k: string) => values[k] ?? m);

const ENGLISH_ERRORS: DocsErrorMessages = {
  validation: 'Some fields are not valid.',
  required: 'This field is required.',
  unauthorized: 'Please log in to continue.',
  notFound: 'Not found.',
};

export function renderDocsPage(
  doc: Doc,
  lang: Locale = 'en',
  appName = doc.info.title.replace(/ API$/, ''),
  opts: { origin?: string; errors?: DocsErrorMessages } = {},
): string {
  const origin = opts.origin ?? '';
  const errorMessages = opts.errors ?? ENGLISH_ERRORS;
  const s = DOCS_STRINGS[lang];
  const tagName = (tag: string) => (tag in s ? s[tag as keyof DocsStrings] : tag);
  const title = fill(s.title, { app: appName });
  const byTag = new Map<string, { method: string; path: string; op: Op }[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods) as [string, Op][]) {
      const tag = op.tags[0] ?? 'Other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, op });
    }
  }
  const tags = doc.tags.map((t) => t.name).filter((t) => byTag.has(t));
  const nav = tags.map((t) => `<li><a href="#${esc(slug(t))}">${esc(tagName(t))}</a></li>`).join('');
  const languages = LOCALES.map((l) =>
    l === lang
      ? `<li><span aria-current="page">${esc(LOCALE_NAMES[l])}</span></li>`
      : `<li><a href="${localizePath('/api/docs', l)}" hreflang="${LOCALE_TAGS[l]}" lang="${LOCALE_TAGS[l]}">${esc(LOCALE_NAMES[l])}</a></li>`,
  ).join('');
  const alternates = LOCALES.map(
    (l) => `<link rel="alternate" hreflang="${LOCALE_TAGS[l]}" href="${localizePath('/api/docs', l)}">`,
  ).join('\n');
  const sections = tags
    .map((tag) => {
      const ops = byTag
        .get(tag)!
        .map(({ method, path, op }) => {
          const auth =
            op.security.length === 0
              ? s.public
              : op.security.some((sec) => 'apiKey' in sec)
                ? s.keyOrSession
                : s.sessionOnly;
          const params = op.parameters.length
            ? `<table><thead><tr><th>${esc(s.parameter)}</th><th>${esc(s.in)}</th><th>${esc(s.schema)}</th></tr></thead><tbody>${op.parameters
                .map(
                  (p) =>
                    `<tr><td><code>${esc(p.name)}</code>${p.required ? ` <span class="req">${esc(s.required)}</span>` : ''}</td><td>${esc(p.in)}</td><td><code>${esc(JSON.stringify(p.schema))}</code></td></tr>`,
                )
                .join('')}</tbody></table>`
            : '';
          const body = op.requestBody
            ? Object.entries(op.requestBody.content)
                .map(
                  ([type, c]) =>
                    `<p class="label">${esc(s.body)} (${esc(type)})</p><pre>${esc(JSON.stringify(c.schema, null, 2))}</pre>`,
                )
                .join('')
            : '';
          return `<article id="${esc(op.operationId)}"><h3><span class="m" style="background:${METHOD_COLOR[method] ?? '#334155'}">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code></h3><p>${esc(op.summary)} <span class="auth">· ${auth}</span></p>${params}${body}${examples(method, path, op, s, origin, errorMessages)}</article>`;
        })
        .join('');
      return `<section id="${esc(slug(tag))}"><h2>${esc(tagName(tag))}</h2>${ops}</section>`;
    })
    .join('');
  return `<!DOCTYPE html>
<html lang="${LOCALE_TAGS[lang]}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${esc(title)}</title>
${alternates}
<style>
body{margin:0;font:15px/1.55 -apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Arial,sans-serif;color:#0f172a;background:#f8fafc}
header{background:#fff;border-bottom:1px solid #e2e8f0;padding:16px 24px}
header h1{margin:0;font-size:20px}header p{margin:6px 0 0;color:#475569;max-width:900px}
.wrap{display:flex;gap:24px;max-width:1200px;margin:0 auto;padding:24px}
nav{flex:0 0 200px;position:sticky;top:16px;align-self:flex-start}nav ul{list-style:none;margin:0;padding:0}
nav a{display:block;padding:4px 0;color:#1d4ed8;text-decoration:none}
main{flex:1;min-width:0}section{margin-bottom:32px}h2{font-size:18px;border-bottom:1px solid #e2e8f0;padding-bottom:6px}
article{background:#fff;border:1px solid #e2e8f0;border-radius:10px;padding:12px 16px;margin:12px 0}
h3{margin:0;font-size:15px;font-weight:600;word-break:break-all}article p{margin:6px 0}
.m{display:inline-block;min-width:56px;text-align:center;color:#fff;border-radius:6px;padding:1px 6px;font-size:12px;margin-right:6px}
.auth{color:#64748b;font-size:13px}.req{color:#b91c1c;font-size:12px}.label{font-weight:600;font-size:13px}
table{border-collapse:collapse;width:100%;font-size:13px;margin:8px 0}th,td{border-top:1px solid #f1f5f9;text-align:left;padding:4px 6px;vertical-align:top}
td code{word-break:break-all}pre{background:#0f172a;color:#e2e8f0;border-radius:8px;padding:10px;overflow:auto;font-size:12px;max-height:360px}
.langs{list-style:none;margin:8px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:4px 12px;font-size:13px}.langs a{color:#1d4ed8;text-decoration:none}.langs span{font-weight:600}
.back{margin:0 0 6px;font-size:13px}.back a{color:#1d4ed8;text-decoration:none}
details.ex{margin-top:8px}details.ex summary{cursor:pointer;color:#1d4ed8;font-size:13px}
@media (max-width:700px){.wrap{display:block;padding:12px}nav{position:static;margin-bottom:12px}nav ul{display:flex;flex-wrap:wrap;gap:4px 12px}}
</style>
</head>
<body>
<header><p class="back"><a href="${localizePath('/dashboard', lang)}" data-testid="docs-back">← ${esc(fill(s.backToApp, { app: appName }))}</a></p><h1>${esc(title)}</h1><p>${esc(s.intro)}${/[。．]$/.test(s.intro) ? '' : ' '}${esc(s.machine)} <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI ${esc(doc.openapi)}).</p><p>${esc(s.errorsIntro)}</p><ul class="langs">${languages}</ul></header>
<div class="wrap"><nav aria-label="${esc(s.sections)}"><ul>${nav}</ul></nav><main>${sections}</main></div>
</body>
</html>
`;
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');
