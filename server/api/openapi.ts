import { z } from 'zod';
import { createApiKeySchema } from './api-keys';
import { exampleOf } from './docs-examples';
import { checkoutSchema, portalSchema, seatsSchema } from './billing';
import { bulkSchema, exportQuery } from './exports';
import { folderDeleteQuery, folderSchema } from './folders';
import { listResponseSchema } from './list-response';
import { footerQuery, pageQuery } from './seo';
import {
  createSchema as shareCreateSchema,
  exportSchema as shareExportSchema,
  updateSchema as shareUpdateSchema,
} from './shares';
import { deleteSchema, importSchema, listSchema, moveSchema, renameSchema } from './transcripts';
import {
  identifySpeakersSchema,
  linkRunSchema,
  retrySchema,
  uploadRunSchema,
} from '../../common/run-options';
import { editRequestSchema } from '../../common/segment-edits';
import { commentEditSchema, commentResolveSchema, commentSchema } from '../../common/comments';
import { renderRequestSchema } from '../../common/render-options';
import { backgroundSchema } from './renders';
import {
  allTracksQuery,
  createTrackSchema,
  editTrackSchema,
  glossarySchema,
  trackExportQuery,
} from './translations';
import { createWebhookSchema, revealSecretSchema, updateWebhookSchema } from './webhooks';
import { insightRequestSchema } from './insights';
import { askRequestSchema } from '../../common/ask';
import { templateInputSchema } from '../../common/ai-templates';
import {
  answerSchema,
  deleteWorkspaceSchema,
  inviteSchema,
  previewSchema,
  roleSchema,
  switchSchema,
  transferSchema,
  workspaceNameSchema,
} from './workspaces';

// The OpenAPI 3.1 description of /self-api/v1, generated from the zod schemas the handlers
// validate with (zod's own JSON Schema output): a route's body and query here are the very
// objects its handler parses. Every mounted route needs an entry (openapi.test.ts checks).

interface RouteDoc {
  tag: string;
  summary: string;
  body?: z.ZodType;
  /** A multipart form (file uploads) rather than JSON. */
  form?: boolean;
  query?: z.ZodType;
  /** The envelope's data on success, when documented. */
  response?: z.ZodType;
  /** What the success answer is, when it is not the JSON envelope. */
  produces?: string;
  /** Answers without signing in. */
  public?: boolean;
  /** Not for API keys (person only). */
  personOnly?: boolean;
}

const T = 'Transcripts';
const F = 'Folders';
const S = 'Shares';
const K = 'API keys';
const W = 'Webhooks';
const B = 'Billing';
const P = 'Public pages';
const WS = 'Workspaces';
const AI = 'AI';
const C = 'Comments';
const R = 'Captioned videos';
const TR = 'Translations';

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  'GET /self-api/v1/locales': { tag: P, summary: 'The interface languages', public: true },
  'GET /self-api/v1/transcripts': {
    tag: T,
    summary: 'List transcripts (search, sort, pages)',
    query: listSchema,
    response: listResponseSchema,
  },
  'POST /self-api/v1/transcripts': {
    tag: T,
    summary: 'Transcribe a finished tus upload',
    body: uploadRunSchema,
  },
  'POST /self-api/v1/transcripts/import': {
    tag: T,
    summary: 'Import an .srt/.vtt file (optionally with its media upload)',
    body: importSchema,
    form: true,
  },
  'POST /self-api/v1/transcripts/from-link': {
    tag: T,
    summary:
      'Transcribe a media file from a link (a web page too when the server has yt-dlp): 202, then downloaded as a job',
    body: linkRunSchema,
  },
  'POST /self-api/v1/transcripts/move': { tag: T, summary: 'Move transcripts to a folder', body: moveSchema },
  'POST /self-api/v1/transcripts/delete': {
    tag: T,
    summary: 'Delete several transcripts',
    body: deleteSchema,
  },
  'GET /self-api/v1/transcripts/{id}': { tag: T, summary: 'One transcript with its segments' },
  'PATCH /self-api/v1/transcripts/{id}': { tag: T, summary: 'Rename a transcript', body: renameSchema },
  'PATCH /self-api/v1/transcripts/{id}/segments': {
    tag: T,
    summary: 'Edit the segments',
    body: editRequestSchema,
  },
  'DELETE /self-api/v1/transcripts/{id}': { tag: T, summary: 'Delete a transcript and its media' },
  'POST /self-api/v1/transcripts/{id}/retry': { tag: T, summary: 'Transcribe again', body: retrySchema },
  'POST /self-api/v1/transcripts/{id}/speakers/identify': {
    tag: T,
    summary: 'Identify the speakers of a finished transcript (a job; speaker_note follows it)',
    body: identifySpeakersSchema,
  },
  'POST /self-api/v1/transcripts/{id}/cancel': { tag: T, summary: 'Stop a waiting or running transcription' },
  'GET /self-api/v1/transcripts/{id}/media': {
    tag: T,
    summary: 'The media file (ranges supported)',
    produces: 'application/octet-stream',
  },
  'GET /self-api/v1/transcripts/{id}/events': {
    tag: T,
    summary:
      'Live progress as server-sent events: a snapshot, status and segment events, then the final snapshot with the segments; on a finished transcript only its snapshot without segments. Final snapshots carry `retry: 60000`',
    produces: 'text/event-stream',
  },
  'GET /self-api/v1/transcripts/{id}/insights': {
    tag: AI,
    summary:
      "A transcript's summary, chapters and templates' outputs (with citations), and the month's AI actions",
  },
  'POST /self-api/v1/transcripts/{id}/insights': {
    tag: AI,
    summary:
      'Make (or make again) the summary, the chapters or a template’s Markdown output: 202, then generated as a job',
    body: insightRequestSchema,
  },
  'GET /self-api/v1/transcripts/{id}/insights/events': {
    tag: AI,
    summary: 'Progress and generated text of AI outputs as server-sent events',
    produces: 'text/event-stream',
  },
  'POST /self-api/v1/transcripts/{id}/ask': {
    tag: AI,
    summary:
      'Ask a question about the transcript (one AI action): 202 with the question and its queued answer, then answered as a job; the answer cites segments as [k] marks into its citations, found: false when it is not there',
    body: askRequestSchema,
  },
  'GET /self-api/v1/transcripts/{id}/conversation': {
    tag: AI,
    summary:
      "The caller's conversation about the transcript (questions and cited answers) and the month's AI actions",
  },
  'DELETE /self-api/v1/transcripts/{id}/conversation': {
    tag: AI,
    summary: "Clear the caller's conversation about the transcript",
  },
  'GET /self-api/v1/transcripts/{id}/conversation/events': {
    tag: AI,
    summary:
      'The answer on its way as server-sent events: status, token (generated text), then message (the stored answer)',
    produces: 'text/event-stream',
  },
  'POST /self-api/v1/folders/{id}/ask': {
    tag: AI,
    summary:
      "Ask a question about the folder's finished transcripts (one AI action): 202 with the question and its queued answer, then answered as a job; the answer cites segments as [k] marks into its citations, found: false when it is not there",
    body: askRequestSchema,
  },
  'GET /self-api/v1/folders/{id}/conversation': {
    tag: AI,
    summary:
      "The caller's conversation about the folder's finished transcripts (questions and cited answers) and the month's AI actions",
  },
  'DELETE /self-api/v1/folders/{id}/conversation': {
    tag: AI,
    summary: "Clear the caller's conversation about the folder's finished transcripts",
  },
  'GET /self-api/v1/folders/{id}/conversation/events': {
    tag: AI,
    summary:
      'The answer on its way as server-sent events: status, token (generated text), then message (the stored answer)',
    produces: 'text/event-stream',
  },
  'GET /self-api/v1/ai-templates': {
    tag: AI,
    summary: 'The built-in AI templates (in your language) and the current workspace’s own',
  },
  'POST /self-api/v1/ai-templates': {
    tag: AI,
    summary: 'Write a template: your instructions, run on any transcript (editors and up)',
    body: templateInputSchema,
  },
  'PATCH /self-api/v1/ai-templates/{id}': {
    tag: AI,
    summary: 'Edit a template (editors and up)',
    body: templateInputSchema,
  },
  'DELETE /self-api/v1/ai-templates/{id}': {
    tag: AI,
    summary: 'Delete a template and its outputs (editors and up)',
  },
  'GET /self-api/v1/transcripts/{id}/export': {
    tag: T,
    summary: 'Export as txt, srt, vtt, docx or json',
    query: exportQuery,
    produces: 'application/octet-stream',
  },
  'POST /self-api/v1/transcripts/export': {
    tag: T,
    summary:
      'Export several transcripts as one zip: the finished ones; the ids of unfinished ones left out are in the X-Export-Skipped header',
    body: bulkSchema,
    produces: 'application/zip',
  },
  'POST /self-api/v1/transcripts/{id}/shares': {
    tag: S,
    summary: 'Create a share link',
    body: shareCreateSchema,
  },
  'GET /self-api/v1/transcripts/{id}/shares': { tag: S, summary: "A transcript's share links" },
  'PATCH /self-api/v1/transcripts/{id}/shares/{shareId}': {
    tag: S,
    summary: "Change an active share link's options (whether it shows the summary and chapters)",
    body: shareUpdateSchema,
  },
  'DELETE /self-api/v1/transcripts/{id}/shares/{shareId}': { tag: S, summary: 'Revoke a share link' },
  'GET /self-api/v1/shares/{id}/{shareId}': { tag: S, summary: 'A shared transcript', public: true },
  'GET /self-api/v1/shares/{id}/{shareId}/media': {
    tag: S,
    summary: "A shared transcript's media",
    public: true,
    produces: 'application/octet-stream',
  },
  'GET /self-api/v1/shares/{id}/{shareId}/export': {
    tag: S,
    summary: 'Export a shared transcript',
    public: true,
    query: shareExportSchema,
    produces: 'application/octet-stream',
  },
  'POST /self-api/v1/transcripts/{id}/renders': {
    tag: R,
    summary: 'Render an MP4 with the captions burned in (a job: poll it, cancel it, download it)',
    body: renderRequestSchema,
  },
  'GET /self-api/v1/transcripts/{id}/renders': {
    tag: R,
    summary: "A transcript's captioned videos (newest first) and the month's render minutes left",
  },
  'GET /self-api/v1/renders/{id}/events': {
    tag: R,
    summary: 'Progress of a captioned video as server-sent events, until it ends',
    produces: 'text/event-stream',
  },
  'GET /self-api/v1/renders/{id}': { tag: R, summary: 'One captioned video: status, progress, file' },
  'POST /self-api/v1/renders/{id}/cancel': { tag: R, summary: 'Stop a waiting or running render' },
  'GET /self-api/v1/renders/{id}/file': {
    tag: R,
    summary: 'The MP4 (ranges; ?download=1 for an attachment)',
    produces: 'video/mp4',
  },
  'GET /self-api/v1/render-background': {
    tag: R,
    summary: "The current workspace's picture behind audio-only captioned videos (JPEG)",
    produces: 'image/jpeg',
  },
  'PUT /self-api/v1/render-background': {
    tag: R,
    summary:
      'Set the picture behind audio-only captioned videos (PNG, JPEG or WebP up to 5 MB and 8000 px; render with background_image: true)',
    body: backgroundSchema,
    form: true,
  },
  'DELETE /self-api/v1/render-background': {
    tag: R,
    summary: "Remove the workspace's background picture",
  },
  'GET /self-api/v1/translation-languages': {
    tag: TR,
    summary: 'The languages a transcript can be translated into',
  },
  'GET /self-api/v1/transcripts/{id}/translations': { tag: TR, summary: "A transcript's translation tracks" },
  'POST /self-api/v1/transcripts/{id}/translations': {
    tag: TR,
    summary: 'Translate a transcript into a language (a job; webhook translation.completed)',
    body: createTrackSchema,
  },
  'GET /self-api/v1/transcripts/{id}/translations/export': {
    tag: TR,
    summary: 'The original and every translation in one zip',
    query: allTracksQuery,
    produces: 'application/zip',
  },
  'GET /self-api/v1/translations/{id}': { tag: TR, summary: 'One translation track: one text per segment' },
  'PATCH /self-api/v1/translations/{id}': {
    tag: TR,
    summary: 'Edit translated segments (by revision)',
    body: editTrackSchema,
  },
  'POST /self-api/v1/translations/{id}/segments/{index}/retranslate': {
    tag: TR,
    summary:
      "Translate one segment again: 202, a job; the segment is listed in the track's retranslating until its 'retranslated' event (GET /translations/{id}/events) brings the saved text",
  },
  'GET /self-api/v1/translations/{id}/export': {
    tag: TR,
    summary: 'Export a translation (bilingual=1: original over translation in SRT/VTT)',
    query: trackExportQuery,
    produces: 'application/octet-stream',
  },
  'GET /self-api/v1/translations/{id}/events': {
    tag: TR,
    summary: "A translation's progress and segments as server-sent events",
    produces: 'text/event-stream',
  },
  'GET /self-api/v1/glossary': { tag: TR, summary: "The current workspace's translation glossary" },
  'PUT /self-api/v1/glossary': {
    tag: TR,
    summary: "Replace the current workspace's glossary",
    body: glossarySchema,
  },
  'GET /self-api/v1/folders': { tag: F, summary: 'List folders' },
  'POST /self-api/v1/folders': { tag: F, summary: 'Create a folder', body: folderSchema },
  'GET /self-api/v1/folders/{id}': { tag: F, summary: 'One folder' },
  'PATCH /self-api/v1/folders/{id}': { tag: F, summary: 'Rename a folder', body: folderSchema },
  'DELETE /self-api/v1/folders/{id}': {
    tag: F,
    summary: 'Delete a folder, moving or deleting its transcripts',
    query: folderDeleteQuery,
  },
  'GET /self-api/v1/billing/plans': { tag: B, summary: 'The plans and their prices', public: true },
  'GET /self-api/v1/billing/status': { tag: B, summary: 'The subscription', personOnly: true },
  'GET /self-api/v1/billing/orders': { tag: B, summary: 'Payments made', personOnly: true },
  'POST /self-api/v1/billing/checkout': {
    tag: B,
    summary: 'Start a Stripe checkout',
    body: checkoutSchema,
    personOnly: true,
  },
  'POST /self-api/v1/billing/portal': {
    tag: B,
    summary: "Open Stripe's billing portal",
    body: portalSchema,
    personOnly: true,
  },
  'POST /self-api/v1/billing/seats': {
    tag: B,
    summary: "Change a team workspace's seats (the subscription's quantity, prorated by Stripe)",
    body: seatsSchema,
    personOnly: true,
  },
  'GET /self-api/v1/seo-landing/check-page': {
    tag: P,
    summary: 'Whether a /tools page exists',
    query: pageQuery,
    public: true,
  },
  'GET /self-api/v1/seo-landing/info': { tag: P, summary: 'A /tools page', query: pageQuery, public: true },
  'GET /self-api/v1/seo-landing/footer-tools': {
    tag: P,
    summary: "The footer's tools",
    query: footerQuery,
    public: true,
  },
  'GET /self-api/v1/api-keys': { tag: K, summary: 'List API keys', personOnly: true },
  'POST /self-api/v1/api-keys': {
    tag: K,
    summary: 'Create an API key (the answer holds the key, once)',
    body: createApiKeySchema,
    personOnly: true,
  },
  'DELETE /self-api/v1/api-keys': {
    tag: K,
    summary: 'Revoke every API key of the account, in every workspace',
    personOnly: true,
  },
  'DELETE /self-api/v1/api-keys/{id}': { tag: K, summary: 'Revoke an API key', personOnly: true },
  'GET /self-api/v1/webhooks': { tag: W, summary: 'List webhook endpoints' },
  'POST /self-api/v1/webhooks': {
    tag: W,
    summary: 'Add an endpoint (the answer holds its signing secret)',
    body: createWebhookSchema,
  },
  'GET /self-api/v1/webhooks/{id}': { tag: W, summary: 'One endpoint (never its signing secret)' },
  'POST /self-api/v1/webhooks/{id}/secret': {
    tag: W,
    summary: 'The signing secret again, for the password (signed-in person only)',
    body: revealSecretSchema,
    personOnly: true,
  },
  'POST /self-api/v1/webhooks/{id}/rotate-secret': {
    tag: W,
    summary: 'A new signing secret, shown once; the old one signs too for 24 hours',
  },
  'PATCH /self-api/v1/webhooks/{id}': {
    tag: W,
    summary: 'Change or turn on/off an endpoint',
    body: updateWebhookSchema,
  },
  'DELETE /self-api/v1/webhooks/{id}': { tag: W, summary: 'Delete an endpoint' },
  'GET /self-api/v1/webhooks/{id}/deliveries': { tag: W, summary: 'The delivery log (newest first)' },
  'POST /self-api/v1/webhooks/{id}/test': { tag: W, summary: 'Send a test event now' },
  'GET /self-api/v1/workspaces': {
    tag: WS,
    summary: 'Your workspaces and the current one',
    personOnly: true,
  },
  'POST /self-api/v1/workspaces': {
    tag: WS,
    summary: 'Create a team workspace (you are its owner)',
    body: workspaceNameSchema,
    personOnly: true,
  },
  'GET /self-api/v1/workspaces/current': {
    tag: WS,
    summary: 'The workspace you work in (X-Workspace header, else the switcher’s cookie, else personal)',
    personOnly: true,
  },
  'PUT /self-api/v1/workspaces/current': {
    tag: WS,
    summary: 'Switch the pages to another of your workspaces',
    body: switchSchema,
    personOnly: true,
  },
  'GET /self-api/v1/workspaces/{id}': { tag: WS, summary: 'One workspace, with its seats', personOnly: true },
  'PATCH /self-api/v1/workspaces/{id}': {
    tag: WS,
    summary: 'Rename a team workspace (admin)',
    body: workspaceNameSchema,
    personOnly: true,
  },
  'DELETE /self-api/v1/workspaces/{id}': {
    tag: WS,
    summary: 'Delete a team workspace with everything in it (owner; type its name)',
    body: deleteWorkspaceSchema,
    personOnly: true,
  },
  'GET /self-api/v1/workspaces/{id}/members': {
    tag: WS,
    summary: 'The members and their roles',
    personOnly: true,
  },
  'PATCH /self-api/v1/workspaces/{id}/members/{userId}': {
    tag: WS,
    summary: 'Change a member’s role (admin; owners by an owner)',
    body: roleSchema,
    personOnly: true,
  },
  'DELETE /self-api/v1/workspaces/{id}/members/{userId}': {
    tag: WS,
    summary: 'Remove a member: their access and API keys end at once',
    personOnly: true,
  },
  'POST /self-api/v1/workspaces/{id}/leave': { tag: WS, summary: 'Leave a team workspace', personOnly: true },
  'POST /self-api/v1/workspaces/{id}/transfer': {
    tag: WS,
    summary: 'Make another member the owner (you become admin)',
    body: transferSchema,
    personOnly: true,
  },
  'GET /self-api/v1/workspaces/{id}/invitations': {
    tag: WS,
    summary: 'Invitations waiting for an answer (admin)',
    personOnly: true,
  },
  'POST /self-api/v1/workspaces/{id}/invitations': {
    tag: WS,
    summary: 'Invite an address by e-mail (admin; counts against the seats)',
    body: inviteSchema,
    personOnly: true,
  },
  'POST /self-api/v1/workspaces/{id}/invitations/{invitationId}/resend': {
    tag: WS,
    summary: 'Send an invitation again with a new link',
    personOnly: true,
  },
  'DELETE /self-api/v1/workspaces/{id}/invitations/{invitationId}': {
    tag: WS,
    summary: 'Revoke an invitation',
    personOnly: true,
  },
  'GET /self-api/v1/invitations': {
    tag: WS,
    summary: 'Invitations waiting for your verified address',
    personOnly: true,
  },
  'GET /self-api/v1/transcripts/{id}/comments': {
    tag: C,
    summary: 'A transcript’s comments and replies, oldest first',
  },
  'POST /self-api/v1/transcripts/{id}/comments': {
    tag: C,
    summary: 'Comment on a segment or a time range (or reply); mentioned members get a mail',
    body: commentSchema,
  },
  'PATCH /self-api/v1/transcripts/{id}/comments/{commentId}': {
    tag: C,
    summary: 'Change your own comment',
    body: commentEditSchema,
  },
  'DELETE /self-api/v1/transcripts/{id}/comments/{commentId}': {
    tag: C,
    summary: 'Delete a comment and its replies (its author, or an admin)',
  },
  'POST /self-api/v1/transcripts/{id}/comments/{commentId}/resolve': {
    tag: C,
    summary: 'Resolve a thread, or open it again (its author, or an editor)',
    body: commentResolveSchema,
  },
  'GET /self-api/v1/transcripts/{id}/activity': {
    tag: T,
    summary: 'Who uploaded, edited, exported, shared and commented, newest first',
  },
  'GET /self-api/v1/invitations/preview': {
    tag: WS,
    summary: 'What an invitation link is for',
    query: previewSchema,
    public: true,
  },
  'POST /self-api/v1/invitations/accept': {
    tag: WS,
    summary: 'Accept an invitation (by its link’s token or its id)',
    body: answerSchema,
    personOnly: true,
  },
  'POST /self-api/v1/invitations/decline': {
    tag: WS,
    summary: 'Decline an invitation',
    body: answerSchema,
    personOnly: true,
  },
};

/** Hono's `/x/:id` as OpenAPI's `/x/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete out.$schema;
  return out;
}

const envelope = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: {
    code: { type: 'integer', description: '200 on success' },
    message: { type: 'string', description: '"ok" on success' },
    data: {},
  },
};

/** An error answer: a readable sentence beside the stable code and key (docs/product.md#the-api). */
const errorEnvelope = {
  type: 'object',
  required: ['code', 'message', 'message_key', 'data'],
  properties: {
    code: {
      type: 'integer',
      description: 'The error code; its first three digits are the HTTP status (40304 → 403)',
    },
    message: {
      type: 'string',
      description:
        "What went wrong, as a sentence in the caller's language: the page's language (locale cookie), else Accept-Language, else the API key owner's language, else English",
    },
    message_key: {
      type: 'string',
      description: 'The stable key of the message (errors.…); match on it or on code, never on message',
    },
    data: {
      description:
        "The message's details (placeholders; invalid fields as data.fields, field → sentence, beside data.field_keys, field → stable key), or null",
    },
  },
};

/** Typical refusals, as an English-speaking caller reads them. */
const errorExamples = {
  plan: {
    summary: 'A plan limit',
    value: {
      code: 40304,
      message: 'Your plan does not include DOCX exports. Upgrade your plan to use this format.',
      message_key: 'errors.exports.formatNotInPlan',
      data: { format: 'DOCX' },
    },
  },
  validation: {
    summary: 'Invalid fields',
    value: {
      code: 422,
      message: 'Some fields are not valid.',
      message_key: 'errors.api.validation',
      data: {
        fields: { url: 'Enter an address starting with http:// or https://.' },
        field_keys: { url: 'validation.url' },
      },
    },
  },
};

/** The success envelope with `data` as its schema says: what a documented answer looks like. */
function successExample(data: unknown) {
  return { code: 200, message: 'ok', data: exampleOf(data) };
}

/** A JSON success answer: the envelope, with data's schema and an example where data is documented. */
function successContent(response: z.ZodType | undefined) {
  if (!response) return { schema: envelope };
  const data = jsonSchema(response, 'output');
  return {
    schema: { ...envelope, properties: { ...envelope.properties, data } },
    example: successExample(data),
  };
}

/** The document for the given mounted routes (documented ones; the test keeps them all so). */
export function buildOpenApi(
  routes: { method: string; path: string }[],
  opts: { title: string; version: string },
) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    if (route.method === 'ALL' || !route.path.startsWith('/self-api/v1/')) continue;
    const path = openApiPath(route.path);
    const doc = ROUTE_DOCS[`${route.method} ${path}`];
    if (!doc) continue;
    const params: Record<string, unknown>[] = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
    }));
    if (doc.query) {
      const q = jsonSchema(doc.query) as { properties?: Record<string, unknown>; required?: string[] };
      for (const [name, schema] of Object.entries(q.properties ?? {})) {
        params.push({ name, in: 'query', required: q.required?.includes(name) ?? false, schema });
      }
    }
    const op: Record<string, unknown> = {
      tags: [doc.tag],
      summary: doc.summary,
      operationId: `${route.method.toLowerCase()}${path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9_]+/g, '_')}`,
      parameters: params,
      responses: {
        '200': doc.produces
          ? { description: 'The file', content: { [doc.produces]: {} } }
          : {
              description: 'The envelope with the result in data',
              content: { 'application/json': successContent(doc.response) },
            },
        default: {
          description: 'An error in the envelope',
          content: { 'application/json': { schema: errorEnvelope, examples: errorExamples } },
        },
      },
      security: doc.public ? [] : doc.personOnly ? [{ session: [] }] : [{ apiKey: [] }, { session: [] }],
    };
    if (doc.body) {
      const schema = jsonSchema(doc.body);
      op.requestBody = {
        required: true,
        content: doc.form ? { 'multipart/form-data': { schema } } : { 'application/json': { schema } },
      };
    }
    (paths[path] ??= {})[route.method.toLowerCase()] = op;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: `${opts.title} API`,
      version: opts.version,
      description:
        "Every answer is the envelope {code, message, data}; an error adds message_key, the stable key of its message, and its message is a sentence in the caller's language (the locale cookie, Accept-Language, else the API key owner's language). Authenticate with an API key (Authorization: Bearer csk_…, created in the profile) or the session. Uploads use tus 1.0 at /self-api/v1/uploads. Webhooks are signed per Standard Webhooks.",
    },
    servers: [{ url: '/' }],
    tags: [T, F, S, W, K, WS, B, P].map((name) => ({ name })),
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'An API key (csk_…)' },
        session: { type: 'apiKey', in: 'cookie', name: 'token' },
      },
    },
    paths,
  };
}
