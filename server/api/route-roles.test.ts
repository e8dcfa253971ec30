// Every product route × every kind of caller (issue #26, decision 0027): the one table that says
// who may do what, held against the running app. Each route is called by the owner, an admin, an
// editor and a viewer of a team workspace, a removed member, a member of another workspace and an
// anonymous visitor — with a session and with an API key — and the answer must be exactly the
// one the role deserves: done, 403 (the role), 404 (not a member: as if missing) or 401.
// A route mounted under /self-api/v1 that is missing from the table fails the last test.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type ApiJson } from '../test/harness';
import { sessionActor, signedInUser } from '../test/users';
import { tusUpload } from '../test/tus';
import { makeMedia } from '../test/media';
import { newShareId } from '../modules/shares/shares';
import { createApiKey } from '../modules/api-keys/keys';
import { hashPassword } from '../modules/auth/passwords';
import { renderRequestSchema } from '../../common/render-options';
import { backgroundKey } from '../modules/render/background';
import { renderFfmpegPath } from '../modules/render/ffmpeg';
import {
  aiTemplates,
  folders,
  renderJobs,
  shareLinks,
  transcriptComments,
  translationTracks,
  users,
  transcripts,
  webhookEndpoints,
  workspaceInvitations,
  workspaceMembers,
  workspaces,
} from '../db/schema';
import { atLeast } from '../../common/workspace-permissions';
import type { WorkspaceRole } from '../../common/record-states';
import { ApiKeyCode, WorkspaceCode } from '../../common/error-codes';
import type { ServerContext } from '../../common/app-context';

type Harness = Awaited<ReturnType<typeof testApp>>;
type Person = Awaited<ReturnType<typeof signedInUser>> & { key: string };

const MEMBER_ROLES = ['owner', 'admin', 'editor', 'viewer'] as const satisfies WorkspaceRole[];
const CALLERS = [...MEMBER_ROLES, 'removed', 'outsider', 'anonymous'] as const;
type Caller = (typeof CALLERS)[number];
type Mode = 'session' | 'key';
/** done · 403 with the role · 404 as if missing · 401 · 403 keys may not · done in its own workspace. */
type Outcome = 'done' | 'forbidden' | 'hidden' | 'unauthorized' | 'keyRefused' | 'elsewhere';

interface World {
  id: string;
  name: string;
  members: Record<(typeof MEMBER_ROLES)[number], Person>;
  removed: Person;
  outsider: Person;
}

interface Req {
  method: string;
  path: string;
  body?: unknown;
  /** A request that is not JSON (multipart, tus). */
  init?: RequestInit;
}

interface RouteCase {
  /** Method and path as mounted (Hono's pattern, without /self-api/v1). */
  route: string;
  /** The lowest role that may do it. */
  need: WorkspaceRole;
  /**
   * object: found by id through the caller's membership · current: the workspace the request
   * acts in (a key's own) · workspace: a workspace named in the path · page: a page's loader.
   */
  scope: 'object' | 'current' | 'workspace' | 'page';
  /** Signed-in people only, never an API key. */
  person?: boolean;
  /** Changes the workspace itself: every call gets a workspace of its own. */
  fresh?: boolean;
  /**
   * The answer a caller who may call it gets, when that is not a success: the request passes the
   * permission check and stops at a later rule (the route's own test covers the rest).
   */
  allowedStatus?: number;
  /** Where a role's answer is not the plain rule. */
  except?: Partial<Record<Caller, Outcome>>;
  /** A route whose calls run ffmpeg takes longer than the default on a busy machine. */
  timeoutMs?: number;
  /** Builds the request for one caller (making the objects it acts on). */
  request(h: Harness, w: World, who: Person | null, caller: Caller): Promise<Req>;
}

let h: Harness;
let mediaFile: string;
const seq = { n: 0 };

beforeAll(async () => {
  h = await testApp(
    {
      // A stand-in for the React Router build: it answers what the page loaders would get.
      ssr: async (req: Request, ctx: ServerContext) => {
        const url = new URL(req.url);
        const [, kind, id] = url.pathname.split('/');
        const found =
          kind === 'transcript' ? await ctx.getTranscript(id ?? '') : await ctx.getFolder(id ?? '');
        return Response.json({ found: found !== null, body: found });
      },
    },
    { ALLOW_PRIVATE_URLS: 'true' },
  );
  mediaFile = makeMedia(path.resolve('tmp/test-media'), 'wav', 1);
});
afterAll(async () => {
  await h.close();
});

const PASSWORD = 'route roles password 1';
let passwordHash = '';
async function person(): Promise<Person> {
  const p = await signedInUser(h.db, { rankName: 'UNLIMITED' });
  // A password: revealing a webhook's secret asks for it.
  passwordHash ||= await hashPassword(PASSWORD);
  await h.db.update(users).set({ passwordHash }).where(eq(users.id, p.user.id));
  return { ...p, key: '' };
}

async function keyFor(p: Person, workspaceId: string): Promise<string> {
  const actor = await sessionActor(h.db, p.user, workspaceId);
  return (await createApiKey(h.deps.services.apiKeys, actor, { name: 'k', scope: 'full' })).key;
}

/** A team workspace with one member per role, a removed member and an outsider with their own. */
async function world(): Promise<World> {
  const owner = await person();
  const name = `Team ${++seq.n}`;
  const [ws] = await h.db
    .insert(workspaces)
    .values({ kind: 'team', name, createdBy: owner.user.id })
    .returning();
  const id = ws!.id;
  const members = { owner } as World['members'];
  await h.db.insert(workspaceMembers).values({ workspaceId: id, userId: owner.user.id, role: 'owner' });
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    members[role] = await person();
    await h.db.insert(workspaceMembers).values({ workspaceId: id, userId: members[role].user.id, role });
  }
  for (const role of MEMBER_ROLES) members[role].key = await keyFor(members[role], id);
  // Removed through the API, as an admin would: the session stays, the key goes with the membership.
  const removed = await person();
  await h.db.insert(workspaceMembers).values({ workspaceId: id, userId: removed.user.id, role: 'editor' });
  removed.key = await keyFor(removed, id);
  const gone = await h.api('DELETE', `/workspaces/${id}/members/${removed.user.id}`, owner.headers);
  expect(gone.json.code).toBe(200);
  // A member of another team workspace, with a key there.
  const outsider = await person();
  const [other] = await h.db
    .insert(workspaces)
    .values({ kind: 'team', name: 'Elsewhere', createdBy: outsider.user.id })
    .returning();
  await h.db
    .insert(workspaceMembers)
    .values({ workspaceId: other!.id, userId: outsider.user.id, role: 'owner' });
  outsider.key = await keyFor(outsider, other!.id);
  return { id, name, members, removed, outsider };
}

// Objects of the team workspace, made by its owner.
async function transcript(w: World, values: Partial<typeof transcripts.$inferInsert> = {}) {
  const [row] = await h.db
    .insert(transcripts)
    .values({
      workspaceId: w.id,
      userId: w.members.owner.user.id,
      name: 'Interview',
      source: 'upload',
      status: 'done',
      progress: 100,
      segments: [{ start: 0, end: 1, text: 'Hello there' }],
      plainText: 'Hello there',
      durationSec: 1,
      ...values,
    })
    .returning();
  return row!;
}
async function withMedia(w: World) {
  const id = randomUUID();
  const key = `media/${w.members.owner.user.id}/${id}`;
  await h.deps.services.transcription.storage.putFile(mediaFile, key);
  return transcript(w, { id, mediaKey: key, mediaType: 'audio/wav', mediaName: 'a.wav' });
}
async function folder(w: World) {
  const [row] = await h.db
    .insert(folders)
    .values({ workspaceId: w.id, userId: w.members.owner.user.id, name: `F ${randomUUID().slice(0, 8)}` })
    .returning();
  return row!;
}
async function share(w: World) {
  const t = await transcript(w);
  const [row] = await h.db
    .insert(shareLinks)
    .values({ id: newShareId(), transcriptId: t.id, workspaceId: w.id, userId: w.members.owner.user.id })
    .returning();
  return row!;
}
async function webhook(w: World) {
  const [row] = await h.db
    .insert(webhookEndpoints)
    .values({
      workspaceId: w.id,
      userId: w.members.owner.user.id,
      url: 'http://127.0.0.1:9/hook',
      events: ['transcript.completed'],
      secret: 'whsec_test',
    })
    .returning();
  return row!;
}
async function aiTemplate(w: World) {
  const [row] = await h.db
    .insert(aiTemplates)
    .values({ workspaceId: w.id, createdBy: w.members.owner.user.id, name: 'T', instructions: 'Do it.' })
    .returning();
  return row!;
}
/** A comment by the workspace's owner on a transcript of it. */
async function comment(w: World) {
  const t = await transcript(w);
  const [row] = await h.db
    .insert(transcriptComments)
    .values({ workspaceId: w.id, transcriptId: t.id, userId: w.members.owner.user.id, body: 'Check this' })
    .returning();
  return row!;
}
/** A captioned video of a transcript with media: queued, or done with its file in storage. */
async function render(w: World, done = false) {
  const t = await withMedia(w);
  const id = randomUUID();
  const outputKey = done ? `media/${w.members.owner.user.id}/renders/${id}.mp4` : null;
  if (outputKey) await h.deps.services.transcription.storage.putFile(mediaFile, outputKey);
  const [row] = await h.db
    .insert(renderJobs)
    .values({
      id,
      workspaceId: w.id,
      userId: w.members.owner.user.id,
      transcriptId: t.id,
      options: renderRequestSchema.parse({}),
      durationSec: 1,
      maxResolution: 720,
      status: done ? 'done' : 'queued',
      outputKey,
      outputSize: done ? 1 : null,
    })
    .returning();
  return row!;
}
/** A finished translation track of a transcript. */
async function track(w: World) {
  const t = await transcript(w);
  const [row] = await h.db
    .insert(translationTracks)
    .values({
      workspaceId: w.id,
      userId: w.members.owner.user.id,
      transcriptId: t.id,
      language: 'de',
      status: 'done',
      progress: 100,
      texts: ['Hallo'],
      chars: 11,
      sourceUpdatedAt: t.updatedAt,
      completedAt: new Date(),
    })
    .returning();
  return row!;
}
/** A member added for a call to act on (role changes, removal, transfer). */
async function extraMember(w: World, role: WorkspaceRole = 'viewer') {
  const p = await person();
  await h.db.insert(workspaceMembers).values({ workspaceId: w.id, userId: p.user.id, role });
  return p;
}
async function invitation(w: World) {
  const [row] = await h.db
    .insert(workspaceInvitations)
    .values({
      workspaceId: w.id,
      email: `i-${randomUUID()}@example.test`,
      role: 'viewer',
      tokenHash: randomUUID(),
      invitedBy: w.members.owner.user.id,
      expiresAt: new Date(Date.now() + 86_400_000),
      // Sent an hour ago: past the wait before sending again.
      createdAt: new Date(Date.now() - 3_600_000),
    })
    .returning();
  return row!;
}
function multipartImport(): RequestInit {
  const form = new FormData();
  form.set(
    'file',
    new File(['1\n00:00:00,000 --> 00:00:01,000\nHi\n'], 'a.srt', { type: 'application/x-subrip' }),
  );
  return { method: 'POST', body: form };
}
function tusCreate(): RequestInit {
  return {
    method: 'POST',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': '10',
      'Upload-Metadata': `filename ${Buffer.from('a.wav').toString('base64')}`,
    },
  };
}

const get = (p: string): Req => ({ method: 'GET', path: p });
/** A small real PNG (made once with the render's ffmpeg), for the background picture routes. */
let png = '';
function picturePng(): string {
  if (png) return png;
  png = path.resolve('tmp/test-media/route-roles-cover.png');
  mkdirSync(path.dirname(png), { recursive: true });
  execFileSync(renderFfmpegPath(), [
    '-v',
    'error',
    '-y',
    '-f',
    'lavfi',
    '-i',
    'color=c=green:s=32x32',
    '-frames:v',
    '1',
    png,
  ]);
  return png;
}

export const ROUTES: RouteCase[] = [
  // Transcripts
  { route: 'GET /transcripts', need: 'viewer', scope: 'current', request: async () => get('/transcripts') },
  {
    route: 'POST /transcripts',
    need: 'editor',
    scope: 'current',
    // The caller's own finished upload (a member who may not upload gets a made-up id: refused first).
    request: async (_h, _w, who, caller) => {
      let uploadId = randomUUID().replace(/-/g, '');
      if (who && caller !== 'viewer' && caller !== 'removed') {
        const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
        const up = await tusUpload(
          fetcher,
          credentials(who, 'session', caller, _w),
          Buffer.from('not media'),
          'x.mp4',
        );
        if (up.id) uploadId = up.id;
      }
      return { method: 'POST', path: '/transcripts', body: { upload_id: uploadId } };
    },
  },
  {
    route: 'POST /transcripts/import',
    need: 'editor',
    scope: 'current',
    request: async () => ({ method: 'POST', path: '/transcripts/import', init: multipartImport() }),
  },
  {
    route: 'POST /transcripts/from-link',
    need: 'editor',
    scope: 'current',
    request: async () => ({
      method: 'POST',
      path: '/transcripts/from-link',
      body: { url: 'http://127.0.0.1:9/a.mp3' },
    }),
  },
  {
    route: 'POST /transcripts/move',
    need: 'editor',
    scope: 'current',
    request: async (_h, w) => ({
      method: 'POST',
      path: '/transcripts/move',
      body: { ids: [(await transcript(w)).id], folder_id: (await folder(w)).id },
    }),
  },
  {
    route: 'POST /transcripts/delete',
    need: 'editor',
    scope: 'current',
    request: async (_h, w) => ({
      method: 'POST',
      path: '/transcripts/delete',
      body: { ids: [(await transcript(w)).id] },
    }),
  },
  {
    route: 'POST /transcripts/export',
    need: 'viewer',
    scope: 'current',
    request: async (_h, w) => ({
      method: 'POST',
      path: '/transcripts/export',
      body: { ids: [(await transcript(w)).id], format: 'txt' },
    }),
  },
  {
    route: 'GET /transcripts/:id',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await transcript(w)).id}`),
  },
  {
    route: 'PATCH /transcripts/:id',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'PATCH',
      path: `/transcripts/${(await transcript(w)).id}`,
      body: { name: 'New' },
    }),
  },
  {
    route: 'PATCH /transcripts/:id/segments',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'PATCH',
      path: `/transcripts/${(await transcript(w)).id}/segments`,
      body: { op: 'text', index: 0, text: 'Hello again' },
    }),
  },
  {
    route: 'DELETE /transcripts/:id',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({ method: 'DELETE', path: `/transcripts/${(await transcript(w)).id}` }),
  },
  {
    route: 'POST /transcripts/:id/retry',
    // Each retry queues a job again: on the shared world they would reach the plan's limit.
    fresh: true,
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => {
      const t = await transcript(w, {
        source: 'link',
        sourceUrl: 'http://127.0.0.1:9/a.mp3',
        status: 'failed',
      });
      return { method: 'POST', path: `/transcripts/${t.id}/retry`, body: {} };
    },
  },
  {
    route: 'POST /transcripts/:id/cancel',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'POST',
      path: `/transcripts/${(await transcript(w, { status: 'queued', progress: 0 })).id}/cancel`,
    }),
  },
  {
    route: 'GET /transcripts/:id/media',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await withMedia(w)).id}/media`),
  },
  {
    route: 'GET /transcripts/:id/events',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await transcript(w)).id}/events`),
  },
  {
    route: 'GET /transcripts/:id/export',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await transcript(w)).id}/export?format=txt`),
  },
  {
    route: 'POST /transcripts/:id/shares',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'POST',
      path: `/transcripts/${(await transcript(w)).id}/shares`,
      body: {},
    }),
  },
  {
    route: 'GET /transcripts/:id/shares',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await share(w)).transcriptId}/shares`),
  },
  {
    route: 'PATCH /transcripts/:id/shares/:shareId',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => {
      const s = await share(w);
      return {
        method: 'PATCH',
        path: `/transcripts/${s.transcriptId}/shares/${s.id}`,
        body: { include_insights: true },
      };
    },
  },
  {
    route: 'DELETE /transcripts/:id/shares/:shareId',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => {
      const s = await share(w);
      return { method: 'DELETE', path: `/transcripts/${s.transcriptId}/shares/${s.id}` };
    },
  },
  // Questions (modules/ask): every member who reads may ask; each conversation is the caller's own.
  {
    route: 'POST /transcripts/:id/ask',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'POST',
      path: `/transcripts/${(await transcript(w)).id}/ask`,
      body: { question: 'What was said?' },
    }),
  },
  {
    route: 'GET /transcripts/:id/conversation',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await transcript(w)).id}/conversation`),
  },
  {
    route: 'DELETE /transcripts/:id/conversation',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'DELETE',
      path: `/transcripts/${(await transcript(w)).id}/conversation`,
    }),
  },
  {
    route: 'GET /transcripts/:id/conversation/events',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await transcript(w)).id}/conversation/events`),
  },
  {
    route: 'POST /folders/:id/ask',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => {
      const f = await folder(w);
      await transcript(w, { folderId: f.id });
      return { method: 'POST', path: `/folders/${f.id}/ask`, body: { question: 'What was said?' } };
    },
  },
  {
    route: 'GET /folders/:id/conversation',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/folders/${(await folder(w)).id}/conversation`),
  },
  {
    route: 'DELETE /folders/:id/conversation',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => ({ method: 'DELETE', path: `/folders/${(await folder(w)).id}/conversation` }),
  },
  {
    route: 'GET /folders/:id/conversation/events',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/folders/${(await folder(w)).id}/conversation/events`),
  },
  // Comments and activity: members who read a transcript comment on it; a comment is edited by
  // its author (here the owner), deleted by its author or an admin, resolved by its author or an editor.
  {
    route: 'GET /transcripts/:id/comments',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await comment(w)).transcriptId}/comments`),
  },
  {
    route: 'POST /transcripts/:id/comments',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'POST',
      path: `/transcripts/${(await transcript(w)).id}/comments`,
      body: { body: 'Nice', segment_index: 0 },
    }),
  },
  {
    route: 'PATCH /transcripts/:id/comments/:commentId',
    need: 'owner',
    scope: 'object',
    request: async (_h, w) => {
      const c = await comment(w);
      return {
        method: 'PATCH',
        path: `/transcripts/${c.transcriptId}/comments/${c.id}`,
        body: { body: 'Edited' },
      };
    },
  },
  {
    route: 'DELETE /transcripts/:id/comments/:commentId',
    need: 'admin',
    scope: 'object',
    request: async (_h, w) => {
      const c = await comment(w);
      return { method: 'DELETE', path: `/transcripts/${c.transcriptId}/comments/${c.id}` };
    },
  },
  {
    route: 'POST /transcripts/:id/comments/:commentId/resolve',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => {
      const c = await comment(w);
      return {
        method: 'POST',
        path: `/transcripts/${c.transcriptId}/comments/${c.id}/resolve`,
        body: { resolved: true },
      };
    },
  },
  {
    route: 'GET /transcripts/:id/activity',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await transcript(w)).id}/activity`),
  },
  // Folders
  { route: 'GET /folders', need: 'viewer', scope: 'current', request: async () => get('/folders') },
  {
    route: 'POST /folders',
    need: 'editor',
    scope: 'current',
    request: async () => ({
      method: 'POST',
      path: '/folders',
      body: { name: `N ${randomUUID().slice(0, 8)}` },
    }),
  },
  {
    route: 'GET /folders/:id',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/folders/${(await folder(w)).id}`),
  },
  {
    route: 'PATCH /folders/:id',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'PATCH',
      path: `/folders/${(await folder(w)).id}`,
      body: { name: `R ${randomUUID().slice(0, 8)}` },
    }),
  },
  {
    route: 'DELETE /folders/:id',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'DELETE',
      path: `/folders/${(await folder(w)).id}?contents=delete`,
    }),
  },
  // AI templates (decision 0037): any member lists them; editors and up write, edit, delete.
  { route: 'GET /ai-templates', need: 'viewer', scope: 'current', request: async () => get('/ai-templates') },
  {
    route: 'POST /ai-templates',
    need: 'editor',
    scope: 'current',
    request: async () => ({
      method: 'POST',
      path: '/ai-templates',
      body: { name: 'Notes', instructions: 'List the topics.' },
    }),
  },
  {
    route: 'PATCH /ai-templates/:id',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'PATCH',
      path: `/ai-templates/${(await aiTemplate(w)).id}`,
      body: { name: 'Renamed', instructions: 'List the topics.', language: 'de' },
    }),
  },
  {
    route: 'DELETE /ai-templates/:id',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({ method: 'DELETE', path: `/ai-templates/${(await aiTemplate(w)).id}` }),
  },
  // Webhooks
  { route: 'GET /webhooks', need: 'admin', scope: 'current', request: async () => get('/webhooks') },
  {
    route: 'POST /webhooks',
    need: 'admin',
    scope: 'current',
    request: async () => ({ method: 'POST', path: '/webhooks', body: { url: 'http://127.0.0.1:9/in' } }),
  },
  {
    route: 'GET /webhooks/:id',
    need: 'admin',
    scope: 'object',
    request: async (_h, w) => get(`/webhooks/${(await webhook(w)).id}`),
  },
  {
    route: 'PATCH /webhooks/:id',
    need: 'admin',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'PATCH',
      path: `/webhooks/${(await webhook(w)).id}`,
      body: { enabled: false },
    }),
  },
  {
    route: 'DELETE /webhooks/:id',
    need: 'admin',
    scope: 'object',
    request: async (_h, w) => ({ method: 'DELETE', path: `/webhooks/${(await webhook(w)).id}` }),
  },
  {
    route: 'GET /webhooks/:id/deliveries',
    need: 'admin',
    scope: 'object',
    request: async (_h, w) => get(`/webhooks/${(await webhook(w)).id}/deliveries`),
  },
  {
    route: 'POST /webhooks/:id/test',
    need: 'admin',
    scope: 'object',
    request: async (_h, w) => ({ method: 'POST', path: `/webhooks/${(await webhook(w)).id}/test` }),
  },
  // API keys: a member's own, in the workspace they act in.
  {
    route: 'GET /api-keys',
    need: 'viewer',
    scope: 'current',
    person: true,
    request: async () => get('/api-keys'),
  },
  {
    route: 'POST /api-keys',
    need: 'viewer',
    scope: 'current',
    person: true,
    request: async () => ({ method: 'POST', path: '/api-keys', body: { name: 'new' } }),
  },
  {
    route: 'DELETE /api-keys/:id',
    need: 'viewer',
    scope: 'current',
    person: true,
    request: async (_h, w, who, caller) => {
      // Members revoke a key of their own; the others aim at the owner's.
      const holder = who && (MEMBER_ROLES as readonly string[]).includes(caller) ? who : w.members.owner;
      const actor = await sessionActor(h.db, holder.user, w.id);
      const { row } = await createApiKey(h.deps.services.apiKeys, actor, { name: 'doomed', scope: 'full' });
      return { method: 'DELETE', path: `/api-keys/${row.id}` };
    },
  },
  // Uploads (tus): a new one goes to the workspace the request acts in.
  {
    route: 'POST /uploads',
    // The queued fixtures of other routes would count against the jobs at once.
    fresh: true,
    need: 'editor',
    scope: 'current',
    request: async () => ({ method: 'POST', path: '/uploads', init: tusCreate() }),
  },
  {
    // An upload is its uploader's: nobody else learns it exists.
    route: 'HEAD /uploads/:id',
    // The queued fixtures of other routes would count against the jobs at once.
    fresh: true,
    need: 'owner',
    scope: 'object',
    except: { admin: 'hidden', editor: 'hidden', viewer: 'hidden' },
    request: async (_h, w) => {
      const res = await h.app.request('/self-api/v1/uploads', {
        ...tusCreate(),
        headers: {
          ...w.members.owner.headers,
          'x-workspace': w.id,
          ...(tusCreate().headers as Record<string, string>),
        },
      });
      expect(res.status).toBe(201);
      const id = res.headers.get('location')!.split('/').pop()!;
      return {
        method: 'HEAD',
        path: `/uploads/${id}`,
        init: { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } },
      };
    },
  },
  // The workspace, its members and invitations: people only.
  {
    route: 'GET /workspaces/current',
    need: 'viewer',
    scope: 'current',
    person: true,
    request: async () => get('/workspaces/current'),
  },
  {
    route: 'PUT /workspaces/current',
    need: 'viewer',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => ({ method: 'PUT', path: '/workspaces/current', body: { workspace_id: w.id } }),
  },
  {
    route: 'GET /workspaces/:id',
    need: 'viewer',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => get(`/workspaces/${w.id}`),
  },
  {
    route: 'PATCH /workspaces/:id',
    need: 'admin',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => ({ method: 'PATCH', path: `/workspaces/${w.id}`, body: { name: w.name } }),
  },
  {
    route: 'DELETE /workspaces/:id',
    need: 'owner',
    scope: 'workspace',
    person: true,
    fresh: true,
    request: async (_h, w) => ({
      method: 'DELETE',
      path: `/workspaces/${w.id}`,
      body: { confirm_name: w.name },
    }),
  },
  {
    route: 'GET /workspaces/:id/members',
    need: 'viewer',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => get(`/workspaces/${w.id}/members`),
  },
  {
    route: 'PATCH /workspaces/:id/members/:userId',
    // Each call adds a member or an invitation: a workspace of its own keeps the seats free.
    fresh: true,
    need: 'admin',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => ({
      method: 'PATCH',
      path: `/workspaces/${w.id}/members/${(await extraMember(w)).user.id}`,
      body: { role: 'editor' },
    }),
  },
  {
    route: 'DELETE /workspaces/:id/members/:userId',
    // Each call adds a member or an invitation: a workspace of its own keeps the seats free.
    fresh: true,
    need: 'admin',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => ({
      method: 'DELETE',
      path: `/workspaces/${w.id}/members/${(await extraMember(w)).user.id}`,
    }),
  },
  {
    route: 'POST /workspaces/:id/leave',
    need: 'viewer',
    scope: 'workspace',
    person: true,
    fresh: true,
    // The only owner cannot leave: a workspace always keeps one.
    except: { owner: 'forbidden' },
    request: async (_h, w) => ({ method: 'POST', path: `/workspaces/${w.id}/leave` }),
  },
  {
    route: 'POST /workspaces/:id/transfer',
    need: 'owner',
    scope: 'workspace',
    person: true,
    fresh: true,
    request: async (_h, w) => ({
      method: 'POST',
      path: `/workspaces/${w.id}/transfer`,
      body: { user_id: w.members.editor.user.id },
    }),
  },
  {
    route: 'GET /workspaces/:id/invitations',
    need: 'admin',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => get(`/workspaces/${w.id}/invitations`),
  },
  {
    route: 'POST /workspaces/:id/invitations',
    // Each call adds a member or an invitation: a workspace of its own keeps the seats free.
    fresh: true,
    need: 'admin',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => ({
      method: 'POST',
      path: `/workspaces/${w.id}/invitations`,
      body: { email: `n-${randomUUID()}@example.test`, role: 'viewer' },
    }),
  },
  {
    route: 'POST /workspaces/:id/invitations/:invitationId/resend',
    // Each call adds a member or an invitation: a workspace of its own keeps the seats free.
    fresh: true,
    need: 'admin',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => ({
      method: 'POST',
      path: `/workspaces/${w.id}/invitations/${(await invitation(w)).id}/resend`,
    }),
  },
  {
    route: 'DELETE /workspaces/:id/invitations/:invitationId',
    // Each call adds a member or an invitation: a workspace of its own keeps the seats free.
    fresh: true,
    need: 'admin',
    scope: 'workspace',
    person: true,
    request: async (_h, w) => ({
      method: 'DELETE',
      path: `/workspaces/${w.id}/invitations/${(await invitation(w)).id}`,
    }),
  },
  // Captioned videos (issue #28): reading and making one is an export; the transcript's media.
  {
    route: 'POST /transcripts/:id/renders',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'POST',
      path: `/transcripts/${(await withMedia(w)).id}/renders`,
      body: {},
    }),
  },
  {
    route: 'GET /transcripts/:id/renders',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await render(w)).transcriptId}/renders`),
  },
  {
    route: 'GET /renders/:id',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/renders/${(await render(w)).id}`),
  },
  {
    route: 'POST /renders/:id/cancel',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => ({ method: 'POST', path: `/renders/${(await render(w)).id}/cancel` }),
  },
  {
    route: 'GET /renders/:id/events',
    need: 'viewer',
    scope: 'object',
    // A finished render: its stream sends the last snapshot and ends.
    request: async (_h, w) => get(`/renders/${(await render(w, true)).id}/events`),
  },
  {
    route: 'GET /renders/:id/file',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/renders/${(await render(w, true)).id}/file`),
  },
  // Translation tracks (issue #28): read and export as the transcript, make and edit as an editor.
  {
    route: 'GET /transcripts/:id/translations',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await track(w)).transcriptId}/translations`),
  },
  {
    route: 'POST /transcripts/:id/translations',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'POST',
      path: `/transcripts/${(await transcript(w)).id}/translations`,
      body: { language: 'fr' },
    }),
  },
  {
    route: 'GET /transcripts/:id/translations/export',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) =>
      get(`/transcripts/${(await track(w)).transcriptId}/translations/export?format=srt`),
  },
  {
    route: 'GET /translations/:id',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/translations/${(await track(w)).id}`),
  },
  {
    route: 'PATCH /translations/:id',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'PATCH',
      path: `/translations/${(await track(w)).id}`,
      body: { revision: 0, edits: [{ index: 0, text: 'Guten Tag' }] },
    }),
  },
  {
    route: 'POST /translations/:id/segments/:index/retranslate',
    need: 'editor',
    scope: 'object',
    // A segment the track lacks: past the permission check, the language model is not run.
    allowedStatus: 422,
    request: async (_h, w) => ({
      method: 'POST',
      path: `/translations/${(await track(w)).id}/segments/7/retranslate`,
    }),
  },
  {
    route: 'GET /translations/:id/export',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/translations/${(await track(w)).id}/export?format=vtt`),
  },
  {
    route: 'GET /translations/:id/events',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/translations/${(await track(w)).id}/events`),
  },
  // The workspace's glossary: every member reads it, editors change it.
  { route: 'GET /glossary', need: 'viewer', scope: 'current', request: async () => get('/glossary') },
  {
    route: 'PUT /glossary',
    need: 'editor',
    scope: 'current',
    request: async () => ({
      method: 'PUT',
      path: '/glossary',
      body: { terms: [{ source: 'ClipScribe', target: null }] },
    }),
  },
  // The picture behind audio-only captioned videos: every member sees it, editors change it.
  {
    route: 'GET /render-background',
    need: 'viewer',
    scope: 'current',
    request: async (_h, w) => {
      await h.deps.services.render.storage.putFile(picturePng(), backgroundKey(w.id));
      return get('/render-background');
    },
  },
  {
    route: 'PUT /render-background',
    need: 'editor',
    scope: 'current',
    // Each allowed call checks and converts the picture with ffprobe and ffmpeg.
    timeoutMs: 180_000,
    request: async () => {
      const form = new FormData();
      form.set(
        'file',
        new File([new Uint8Array(readFileSync(picturePng()))], 'cover.png', { type: 'image/png' }),
      );
      return { method: 'PUT', path: '/render-background', init: { method: 'PUT', body: form } };
    },
  },
  {
    route: 'DELETE /render-background',
    need: 'editor',
    scope: 'current',
    request: async () => ({ method: 'DELETE', path: '/render-background' }),
  },
  // Who spoke when: an edit of the transcript (a job on its media).
  {
    route: 'POST /transcripts/:id/speakers/identify',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'POST',
      path: `/transcripts/${(await withMedia(w)).id}/speakers/identify`,
      body: {},
    }),
  },
  // Summaries and chapters (decision 0033): read as the transcript, asked for by editors.
  {
    route: 'GET /transcripts/:id/insights',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await transcript(w)).id}/insights`),
  },
  {
    route: 'POST /transcripts/:id/insights',
    need: 'editor',
    scope: 'object',
    request: async (_h, w) => ({
      method: 'POST',
      path: `/transcripts/${(await transcript(w)).id}/insights`,
      body: { kind: 'summary' },
    }),
  },
  {
    route: 'GET /transcripts/:id/insights/events',
    need: 'viewer',
    scope: 'object',
    request: async (_h, w) => get(`/transcripts/${(await transcript(w)).id}/insights/events`),
  },
  // Every key of the account at once: a signed-in person's own keys (a key may not).
  {
    route: 'DELETE /api-keys',
    need: 'viewer',
    scope: 'current',
    person: true,
    fresh: true,
    request: async () => ({ method: 'DELETE', path: '/api-keys' }),
  },
  // A webhook's secret: shown again to an admin who types the password; rotated by an admin.
  {
    route: 'POST /webhooks/:id/secret',
    need: 'admin',
    scope: 'object',
    person: true,
    request: async (_h, w) => ({
      method: 'POST',
      path: `/webhooks/${(await webhook(w)).id}/secret`,
      body: { password: PASSWORD },
    }),
  },
  {
    route: 'POST /webhooks/:id/rotate-secret',
    need: 'admin',
    scope: 'object',
    request: async (_h, w) => ({ method: 'POST', path: `/webhooks/${(await webhook(w)).id}/rotate-secret` }),
  },
  // Pages: what their loaders get (a session's cookie only).
  {
    route: 'PAGE /transcripts/:id',
    need: 'viewer',
    scope: 'page',
    request: async (_h, w) => get(`/transcript/${(await transcript(w)).id}`),
  },
  {
    route: 'PAGE /folder/:id',
    need: 'viewer',
    scope: 'page',
    request: async (_h, w) => get(`/folder/${(await folder(w)).id}`),
  },
];

/** Routes that are not a workspace's: public, or the account's own (tested where they live). */
const NOT_WORKSPACE_ROUTES = [
  'GET /locales',
  'GET /translation-languages',
  'GET /shares/:id/:shareId',
  'GET /shares/:id/:shareId/media',
  'GET /shares/:id/:shareId/export',
  'GET /seo-landing/*',
  'GET /billing/*',
  'POST /billing/*',
  'GET /workspaces',
  'POST /workspaces',
  'GET /invitations',
  'GET /invitations/preview',
  'POST /invitations/accept',
  'POST /invitations/decline',
];

function expected(rc: RouteCase, caller: Caller, mode: Mode): Outcome {
  if (caller === 'anonymous') return 'unauthorized';
  // The removed member's keys went with the membership.
  if (mode === 'key' && caller === 'removed') return 'unauthorized';
  if (mode === 'key' && rc.person) return 'keyRefused';
  if (caller === 'removed' || caller === 'outsider') {
    // A key acts in its own workspace: there it may list and create, never reach this one.
    return mode === 'key' && rc.scope === 'current' ? 'elsewhere' : 'hidden';
  }
  const exception = rc.except?.[caller];
  if (exception) return exception;
  return atLeast(caller, rc.need) ? 'done' : 'forbidden';
}

function credentials(who: Person | null, mode: Mode, caller: Caller, w: World): Record<string, string> {
  const base = { origin: 'http://localhost' };
  if (!who) return base;
  if (mode === 'key') return { ...base, authorization: `Bearer ${who.key}` };
  // A session names the team workspace, as the switcher's cookie or the X-Workspace header does.
  return caller === 'anonymous' ? base : { ...who.headers, 'x-workspace': w.id };
}

function personOf(w: World, caller: Caller): Person | null {
  if (caller === 'anonymous') return null;
  if (caller === 'removed') return w.removed;
  if (caller === 'outsider') return w.outsider;
  return w.members[caller];
}

async function send(req: Req, headers: Record<string, string>, page: boolean) {
  const url = page ? req.path : `/self-api/v1${req.path}`;
  const init: RequestInit = req.init
    ? { ...req.init, headers: { ...(req.init.headers as Record<string, string>), ...headers } }
    : {
        method: req.method,
        headers: { ...headers, 'content-type': 'application/json' },
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
      };
  const res = await h.app.request(url, init);
  const text = req.method === 'HEAD' ? '' : await res.text();
  let json: ApiJson | null = null;
  try {
    json = JSON.parse(text) as ApiJson;
  } catch {
    json = null;
  }
  return { res, json, text };
}

function judge(outcome: Outcome, rc: RouteCase, r: Awaited<ReturnType<typeof send>>, w: World): void {
  const { res, json, text } = r;
  const status = res.status;
  if (rc.scope === 'page') {
    // A page's loader finds the object or not (a signed-out visitor may be sent to the login).
    const found = json ? (json as unknown as { found: boolean }).found : false;
    expect(found).toBe(outcome === 'done');
    return;
  }
  switch (outcome) {
    case 'done':
      if (rc.allowedStatus) expect(status, text).toBe(rc.allowedStatus);
      else expect(status, text).toBeLessThan(300);
      break;
    case 'forbidden':
      expect(status, text).toBe(403);
      if (json) expect(json.code).toBe(WorkspaceCode.FORBIDDEN);
      break;
    case 'hidden':
      expect(status, text).toBe(404);
      break;
    case 'unauthorized':
      expect(status, text).toBe(401);
      break;
    case 'keyRefused':
      expect(status, text).toBe(403);
      expect(json?.code).toBe(ApiKeyCode.NOT_ALLOWED);
      break;
    case 'elsewhere':
      expect(status, text).toBeLessThan(500);
      break;
  }
  // Whatever a refused or foreign caller gets, it never names the team workspace.
  if (outcome !== 'done') expect(text).not.toContain(w.id);
}

const size = { routes: 0, cases: 0, assertions: 0 };

describe('every route × every role', () => {
  let shared: World;
  beforeAll(async () => {
    shared = await world();
  });

  for (const rc of ROUTES) {
    it(
      rc.route,
      async () => {
        size.routes++;
        for (const caller of CALLERS) {
          const modes: Mode[] =
            caller === 'anonymous' || rc.scope === 'page' ? ['session'] : ['session', 'key'];
          for (const mode of modes) {
            const w = rc.fresh ? await world() : shared;
            const who = personOf(w, caller);
            const req = await rc.request(h, w, who, caller);
            const outcome = expected(rc, caller, mode);
            const r = await send(req, credentials(who, mode, caller, w), rc.scope === 'page');
            try {
              judge(outcome, rc, r, w);
            } catch (err) {
              throw new Error(
                `${rc.route} as ${caller} (${mode}): expected ${outcome}, got ${r.res.status} ${r.text.slice(0, 200)}`,
                {
                  cause: err,
                },
              );
            }
            size.cases++;
            size.assertions += outcome === 'done' || rc.scope === 'page' ? 1 : 2;
          }
        }
      },
      rc.timeoutMs,
    );
  }

  it('covers every route mounted under /self-api/v1 and the uploads', () => {
    const covered = new Set([...ROUTES.map((r) => r.route), ...NOT_WORKSPACE_ROUTES]);
    const mounted = h.app.routes
      .filter((r) => r.method !== 'ALL' && r.path.startsWith('/self-api/v1/'))
      .map((r) => `${r.method} ${r.path.replace('/self-api/v1', '')}`);
    const missing = [...new Set(mounted)].filter(
      (r) =>
        !covered.has(r) &&
        !covered.has(r.replace(/\/[^/]+$/, '/*').replace(/^(\w+) \/(\w[\w-]*)\/.*$/, '$1 /$2/*')),
    );
    // A new route belongs in ROUTES above (who may call it), or, when no workspace owns what it
    // touches, in NOT_WORKSPACE_ROUTES.
    expect(missing).toEqual([]);
    console.info(
      `route × role: ${size.routes} routes × ${CALLERS.length} callers = ${size.cases} calls, ${size.assertions} assertions`,
    );
  });
});

describe('what a request names never overrides membership', () => {
  it('ignores a workspace id in the header, the cookie or the body for another workspace’s objects', async () => {
    const w = await world();
    const t = await transcript(w);
    const f = await folder(w);
    // The outsider names the team workspace every way a request can.
    const asked = [
      { ...w.outsider.headers, 'x-workspace': w.id },
      { ...w.outsider.headers, cookie: `${w.outsider.headers.cookie}; clipscribe_workspace=${w.id}` },
    ];
    for (const headers of asked) {
      expect((await h.api('GET', `/transcripts/${t.id}`, headers)).res.status).toBe(404);
      expect(
        (await h.api('POST', '/transcripts/move', headers, { ids: [t.id], folder_id: null })).res.status,
      ).toBe(404);
    }
    // A key of another workspace that names this one is refused, never let through.
    const byKey = await h.api('GET', '/transcripts', {
      authorization: `Bearer ${w.outsider.key}`,
      'x-workspace': w.id,
    });
    expect(byKey.json.code).toBe(WorkspaceCode.KEY_WORKSPACE);
    // Moving into a folder of another workspace: the folder is as good as missing.
    const mine = await transcript(w);
    const [personalFolder] = await h.db
      .select()
      .from(folders)
      .where(and(eq(folders.userId, w.members.owner.user.id), eq(folders.workspaceId, w.id)));
    expect(personalFolder?.id).toBe(f.id);
    const ownerPersonal = await sessionActor(h.db, w.members.owner.user);
    const [otherFolder] = await h.db
      .insert(folders)
      .values({ workspaceId: ownerPersonal.workspace.id, userId: w.members.owner.user.id, name: 'Mine' })
      .returning();
    const moved = await h.api(
      'POST',
      '/transcripts/move',
      { ...w.members.owner.headers, 'x-workspace': w.id },
      { ids: [mine.id], folder_id: otherFolder!.id },
    );
    expect(moved.res.status).toBe(404);
  });

  it('applies a role change on the next request and ends a removed member’s stream', async () => {
    const w = await world();
    const t = await transcript(w);
    const editor = w.members.editor;
    const headers = { ...editor.headers, 'x-workspace': w.id };
    const rename = () => h.api('PATCH', `/transcripts/${t.id}`, headers, { name: 'Edited' });
    expect((await rename()).json.code).toBe(200);
    const demoted = await h.api(
      'PATCH',
      `/workspaces/${w.id}/members/${editor.user.id}`,
      w.members.owner.headers,
      {
        role: 'viewer',
      },
    );
    expect(demoted.json.code).toBe(200);
    expect((await rename()).json.code).toBe(WorkspaceCode.FORBIDDEN);
    // Through the key too: it acts with its holder's role of the moment.
    const byKey = await h.api(
      'PATCH',
      `/transcripts/${t.id}`,
      { authorization: `Bearer ${editor.key}` },
      { name: 'X' },
    );
    expect(byKey.json.code).toBe(WorkspaceCode.FORBIDDEN);
    await h.api('DELETE', `/workspaces/${w.id}/members/${editor.user.id}`, w.members.owner.headers);
    expect((await h.api('GET', `/transcripts/${t.id}`, editor.headers)).res.status).toBe(404);
    expect(
      (await h.api('GET', `/transcripts/${t.id}`, { authorization: `Bearer ${editor.key}` })).res.status,
    ).toBe(401);
  });

  it('lets only the uploader use an upload, and only while still a member who may upload', async () => {
    const w = await world();
    const editor = w.members.editor;
    const headers = { ...editor.headers, 'x-workspace': w.id };
    const fetcher = (p: string, init: RequestInit) => h.app.request(p, init);
    const bytes = Buffer.alloc(64, 1);
    const started = await tusUpload(fetcher, headers, bytes.subarray(0, 32), 'a.mp4', { declaredLength: 64 });
    expect(started.id).not.toBeNull();
    const head = (hs: Record<string, string>) =>
      h.app.request(`/self-api/v1/uploads/${started.id}`, {
        method: 'HEAD',
        headers: { ...hs, 'Tus-Resumable': '1.0.0' },
      });
    expect((await head(headers)).status).toBe(200);
    expect((await head({ ...w.members.admin.headers, 'x-workspace': w.id })).status).toBe(404);
    // Demoted to viewer mid-upload: the next chunk is refused.
    await h.db
      .update(workspaceMembers)
      .set({ role: 'viewer' })
      .where(and(eq(workspaceMembers.workspaceId, w.id), eq(workspaceMembers.userId, editor.user.id)));
    expect((await head(headers)).status).toBe(403);
    await h.api('DELETE', `/workspaces/${w.id}/members/${editor.user.id}`, w.members.owner.headers);
    expect((await head(editor.headers)).status).toBe(404);
    // A finished upload cannot be turned into a transcript of another workspace.
    const done = await tusUpload(
      fetcher,
      { ...w.members.admin.headers, 'x-workspace': w.id },
      bytes,
      'b.mp4',
    );
    const elsewhere = await h.api('POST', '/transcripts', w.members.admin.headers, { upload_id: done.id });
    expect(elsewhere.res.status).toBe(404);
  });
});
