// AI templates through a real app (PGlite, the database queue's language lane) with the `openai`
// adapter pointed at a local server speaking the chat completions protocol: writing templates,
// running built-in and own ones on a transcript, citations, stale outputs, access and the quota.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BUILTIN_TEMPLATES } from '../../common/ai-templates';
import { InsightCode, TemplateCode, TranscriptCode } from '../../common/error-codes';
import type { InsightJson } from '../../common/insights';
import type { Segment } from '../../common/segments';
import { joinStreamed } from '../../common/streamed-text';
import { aiActions, insights, transcripts, users } from '../db/schema';
import { readStream, streamed, type ChatServer } from '../test/chat-server';
import { newTranscript } from '../test/factories';
import type { testApp } from '../test/harness';
import { testAppWithModel } from '../test/model-app';
import { taskOf } from '../test/insight-replies';
import { signedInUser } from '../test/users';
import { waitFor } from '../test/wait';

let chat: ChatServer;
let h: Awaited<ReturnType<typeof testApp>>;

let close: () => Promise<void>;

beforeAll(async () => {
  ({ chat, h, close } = await testAppWithModel());
});
afterAll(() => close());
beforeEach(() => {
  chat.requests.length = 0;
  chat.reply((req, res) => {
    const nums = [...taskOf(req).material.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
    const text = `## Notes\n\n- First [${nums[0]}]\n- Invented [777]\n- Last [${nums.at(-1)}]`;
    return streamed(text.match(/.{1,6}/gs)!, { gapMs: 2 })(req, res);
  });
});

const segments: Segment[] = Array.from({ length: 8 }, (_, i) => ({
  start: i * 30,
  end: i * 30 + 29,
  text: `We discussed item ${i} of the plan.`,
}));

async function setup(opts: Parameters<typeof signedInUser>[1] = {}) {
  const u = await signedInUser(h.db, opts);
  const t = await newTranscript(h.db, u.user.id, { status: 'done', segments, durationSec: 240 });
  return { ...u, t };
}

async function settled(headers: Record<string, string>, id: string, template: string) {
  return waitFor(
    async () => {
      const { json } = await h.api('GET', `/transcripts/${id}/insights`, headers);
      const i = (json.data.templates as InsightJson[]).find((x) => x.template === template);
      return i && (i.status === 'done' || i.status === 'failed') ? i : null;
    },
    { ms: 15_000, what: `the output of ${template}` },
  );
}

describe('AI templates API', () => {
  it('lists the built-in templates in the caller’s language, and writes, edits and deletes own ones', async () => {
    const { user, headers } = await setup();
    await h.db.update(users).set({ language: 'ja' }).where(eq(users.id, user.id));
    const list = await h.api('GET', '/ai-templates', headers);
    expect(list.json.data.builtin.map((b: { name: string }) => b.name)).toEqual([
      BUILTIN_TEMPLATES['show-notes'].name.ja,
      BUILTIN_TEMPLATES['blog-post'].name.ja,
      BUILTIN_TEMPLATES['meeting-minutes'].name.ja,
      BUILTIN_TEMPLATES['study-notes'].name.ja,
    ]);
    expect(list.json.data.templates).toEqual([]);

    const made = await h.api('POST', '/ai-templates', headers, {
      name: ' Newsletter ',
      instructions: 'Write a newsletter.',
      language: 'fr',
    });
    expect(made.res.status).toBe(201);
    expect(made.json.data).toMatchObject({
      name: 'Newsletter',
      builtin: false,
      language: 'fr',
      created_by: user.id,
    });
    const id = made.json.data.id as string;
    const edited = await h.api('PATCH', `/ai-templates/${id}`, headers, {
      name: 'Letter',
      instructions: 'Write a letter.',
      language: null,
    });
    expect(edited.json.data).toMatchObject({
      name: 'Letter',
      instructions: 'Write a letter.',
      language: null,
    });

    const bad = await h.api('POST', '/ai-templates', headers, { name: '', instructions: 'x' });
    expect(bad.res.status).toBe(422);

    // Someone else's template answers like a missing one.
    const other = await signedInUser(h.db);
    const r = await h.api('PATCH', `/ai-templates/${id}`, other.headers, { name: 'X', instructions: 'Y' });
    expect(r.json.code).toBe(TemplateCode.NOT_FOUND);
    expect((await h.api('DELETE', `/ai-templates/${id}`, other.headers)).json.code).toBe(
      TemplateCode.NOT_FOUND,
    );

    expect((await h.api('DELETE', `/ai-templates/${id}`, headers)).res.status).toBe(200);
    expect((await h.api('GET', '/ai-templates', headers)).json.data.templates).toEqual([]);
  });

  it('runs a built-in template: streamed Markdown with real citations, stored with the revision', async () => {
    const { headers, t } = await setup();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    chat.reply((req, res) => {
      const nums = [...taskOf(req).material.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
      const pieces = `## Notes\n\n- First [${nums[0]}]\n- Invented [777]\n- Last [${nums.at(-1)}]`.match(
        /.{1,6}/gs,
      )!;
      return streamed(pieces, { gapMs: 2, gate, gateAt: 4 })(req, res);
    });
    const { res, json } = await h.api('POST', `/transcripts/${t.id}/insights`, headers, {
      kind: 'template',
      template: 'meeting-minutes',
    });
    expect(res.status).toBe(202);
    expect(json.data).toMatchObject({
      kind: 'template',
      template: 'meeting-minutes',
      status: 'queued',
      language: 'en',
    });

    // The stream opens when half the answer is written: what came before reaches it in a resend.
    await waitFor(() => (chat.requests.length > 0 ? true : null), { what: 'the model request' });
    await new Promise((r) => setTimeout(r, 100));
    const events = await h.app.request(`/self-api/v1/transcripts/${t.id}/insights/events`, { headers });
    const body = await readStream(events, 'event: snapshot', release);
    const tokens = [...body.matchAll(/event: token\ndata: (.*)\n/g)].map((m) => JSON.parse(m[1]!));
    expect(tokens.every((e) => e.kind === 'template')).toBe(true);
    expect(tokens.reduce(joinStreamed, undefined)?.text).toBe(
      `## Notes\n\n- First [0]\n- Invented [777]\n- Last [7]`,
    );

    const out = await settled(headers, t.id, 'meeting-minutes');
    expect(out.status).toBe('done');
    expect(out.markdown).toBe('## Notes\n\n- First [00:00]\n- Invented\n- Last [03:30]');
    expect(out.stale).toBe(false);
    // The model read the built-in template's instructions as the task, the transcript as data.
    const { instructions, material } = taskOf(chat.requests[0]!);
    expect(instructions).toContain(BUILTIN_TEMPLATES['meeting-minutes'].instructions.en);
    // A time on the first line of each minute only (item 2 starts minute 1).
    expect(material).toContain(
      '[2] 01:00 We discussed item 2 of the plan.\n[3] We discussed item 3 of the plan.',
    );

    await h.db
      .update(transcripts)
      .set({ segments: [{ ...segments[0]!, text: 'Edited.' }, ...segments.slice(1)] })
      .where(eq(transcripts.id, t.id));
    const again = await h.api('GET', `/transcripts/${t.id}/insights`, headers);
    expect(again.json.data.templates[0]).toMatchObject({ template: 'meeting-minutes', stale: true });
  });

  it('runs an own template in its language, only on transcripts of its workspace, charging the quota', async () => {
    const { headers, t } = await setup({ rankName: 'Enterprise', customLimits: { ai_actions_per_month: 1 } });
    const made = await h.api('POST', '/ai-templates', headers, {
      name: 'Notes',
      instructions: 'Write a list of the topics.',
      language: 'de',
    });
    const id = made.json.data.id as string;

    // Another account can neither run it on its transcripts nor reach this transcript.
    const other = await setup();
    const r1 = await h.api('POST', `/transcripts/${other.t.id}/insights`, other.headers, {
      kind: 'template',
      template: id,
    });
    expect(r1.json.code).toBe(TemplateCode.NOT_FOUND);
    const r2 = await h.api('POST', `/transcripts/${t.id}/insights`, other.headers, {
      kind: 'template',
      template: id,
    });
    expect(r2.json.code).toBe(TranscriptCode.NOT_FOUND);
    const r3 = await h.api('POST', `/transcripts/${t.id}/insights`, headers, {
      kind: 'template',
      template: 'poem',
    });
    expect(r3.json.code).toBe(TemplateCode.NOT_FOUND);

    await h.api('POST', `/transcripts/${t.id}/insights`, headers, { kind: 'template', template: id });
    const out = await settled(headers, t.id, id);
    expect(out).toMatchObject({ status: 'done', language: 'de' });
    expect(taskOf(chat.requests[0]!).instructions).toContain('Write a list of the topics.');
    expect(taskOf(chat.requests[0]!).instructions).toContain('Write in German.');
    expect(await h.db.select().from(aiActions).where(eq(aiActions.workspaceId, t.workspaceId))).toHaveLength(
      1,
    );

    const over = await h.api('POST', `/transcripts/${t.id}/insights`, headers, {
      kind: 'template',
      template: 'study-notes',
    });
    expect(over.res.status).toBe(403);
    expect(over.json.code).toBe(InsightCode.QUOTA_EXCEEDED);

    // Deleting the template takes its outputs with it.
    await h.api('DELETE', `/ai-templates/${id}`, headers);
    expect(await h.db.select().from(insights).where(eq(insights.transcriptId, t.id))).toEqual([]);
  });
});
