import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentsToPlainText, type Segment } from '../../common/segments';
import { newTranscript } from '../test/factories';
import { testApp } from '../test/harness';
import { signedInUser } from '../test/users';
import { listResponseSchema } from './list-response';

// A search result shows where its text matched. Runs on PGlite (npm test) and
// PostgreSQL (npm run test:services).
type Json = { code: number; data: any };
let h: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  h = await testApp();
});
afterAll(async () => h?.close());

async function list(headers: Record<string, string>, query: string) {
  const res = await h.app.request(`/self-api/v1/transcripts?${query}`, { headers });
  expect(res.status).toBe(200);
  return ((await res.json()) as Json).data;
}

async function transcript(userId: string, name: string, texts: string[]) {
  const segments: Segment[] = texts.map((text, i) => ({ start: i * 4, end: i * 4 + 3, text }));
  return newTranscript(h.db, userId, {
    name,
    source: 'import',
    status: 'done',
    segments,
    plainText: segmentsToPlainText(segments),
  });
}

const marked = (s: { text: string; matches: { start: number; end: number }[] }) => {
  let out = '';
  let at = 0;
  for (const m of s.matches) {
    out += `${s.text.slice(at, m.start)}[${s.text.slice(m.start, m.end)}]`;
    at = m.end;
  }
  return out + s.text.slice(at);
};

describe('search snippets in the transcript list', () => {
  it('gives each text match its first matching segment, with the matches as offsets', async () => {
    const u = await signedInUser(h.db);
    const t = await transcript(u.user.id, 'Planning', [
      'Welcome to the planning call',
      'The Budget for <b>launch</b> & the budgets after it',
      'budget again, later',
    ]);
    const data = await list(u.headers, 'q=budget');
    expect(data.items).toHaveLength(1);
    const { snippet } = data.items[0];
    expect(snippet).toMatchObject({ segment: 1, start: 4, truncated_start: false, truncated_end: false });
    // Plain text: markup in a segment stays text, and the page marks the offsets itself.
    expect(snippet.text).toBe('The Budget for <b>launch</b> & the budgets after it');
    expect(marked(snippet)).toBe('The [Budget] for <b>launch</b> & the [budget]s after it');
    // The list without a search carries no snippet at all.
    expect((await list(u.headers, '')).items[0].snippet).toBeUndefined();
    expect(t.id).toBe(data.items[0].id);
  });

  it('finds several words in different segments, and cuts long segments around the match', async () => {
    const u = await signedInUser(h.db);
    const long = `${'lorem ipsum dolor '.repeat(10)}the coffee signal ${'sit amet '.repeat(20)}`.trim();
    await transcript(u.user.id, 'Long one', ['intro without it', 'signal first here', long]);
    const data = await list(u.headers, 'q=coffee%20signal');
    const { snippet } = data.items[0];
    // The first segment that holds either word.
    expect(snippet.segment).toBe(1);
    expect(marked(snippet)).toBe('[signal] first here');
    const onlyCoffee = (await list(u.headers, 'q=coffee')).items[0].snippet;
    expect(onlyCoffee.segment).toBe(2);
    expect(onlyCoffee.truncated_start).toBe(true);
    expect(onlyCoffee.truncated_end).toBe(true);
    expect(onlyCoffee.text.length).toBeLessThanOrEqual(140);
    expect(marked(onlyCoffee)).toContain('the [coffee] signal');
  });

  it('matches case and accents as written, and Chinese and Japanese inside words', async () => {
    const u = await signedInUser(h.db);
    await transcript(u.user.id, 'Zürich', ['Wir trafen Renée im CAFÉ Zürich']);
    await transcript(u.user.id, '会議', ['次の会議では東京タワーの撮影予算について話し合います']);
    await transcript(u.user.id, '发布会', ['我们讨论了上海发布会的预算和时间安排']);
    expect(marked((await list(u.headers, 'q=caf%C3%A9')).items[0].snippet)).toBe(
      'Wir trafen Renée im [CAFÉ] Zürich',
    );
    const ja = await list(u.headers, `q=${encodeURIComponent('撮影予算')}`);
    expect(ja.items.map((i: any) => i.name)).toEqual(['会議']);
    expect(marked(ja.items[0].snippet)).toBe('次の会議では東京タワーの[撮影予算]について話し合います');
    const zh = await list(u.headers, `q=${encodeURIComponent('预算')}`);
    expect(zh.items.map((i: any) => i.name)).toEqual(['发布会']);
    expect(zh.items[0].snippet.matches).toEqual([{ start: 11, end: 13 }]);
  });

  it('has no snippet for a match by name only, and never shows another user’s text', async () => {
    const u = await signedInUser(h.db);
    const other = await signedInUser(h.db);
    await transcript(u.user.id, 'Quarterly review', ['nothing about it in here']);
    await transcript(other.user.id, 'Quarterly secrets', ['the quarterly secret plan']);
    const data = await list(u.headers, 'q=quarterly');
    expect(data.items.map((i: any) => i.name)).toEqual(['Quarterly review']);
    expect(data.items[0].snippet).toBeNull();
    expect((await list(other.headers, 'q=quarterly')).items[0].snippet.text).toBe(
      'the quarterly secret plan',
    );
  });

  it('takes ILIKE characters and tsquery syntax in a search literally', async () => {
    const u = await signedInUser(h.db);
    await transcript(u.user.id, 'Percent', ['growth of 100% this year', 'a_b and a|b or !x']);
    // Operators are not operators: the words 100, a and x are looked for.
    const data = await list(u.headers, `q=${encodeURIComponent("100% & 'a' | !(x")}`);
    expect(data.total).toBe(1);
    expect(marked(data.items[0].snippet)).toBe('growth of [100]% this year');
    expect((await list(u.headers, 'q=%25')).total).toBe(0);
    expect((await list(u.headers, 'q=_')).total).toBe(0);
    const ok = await list(u.headers, `q=${encodeURIComponent('growth 100')}`);
    expect(marked(ok.items[0].snippet)).toBe('[growth] of [100]% this year');
  });

  it('answers as the OpenAPI document describes it', async () => {
    const u = await signedInUser(h.db);
    await transcript(u.user.id, 'Budget talk', ['the budget']);
    await transcript(u.user.id, 'Budget by name', ['nothing']);
    const data = await list(u.headers, 'q=budget&sort=name&order=asc');
    expect(data.items.map((i: any) => i.snippet === null)).toEqual([true, false]);
    expect(() => listResponseSchema.parse(data)).not.toThrow();
    const doc = (await (await h.app.request('/api/openapi.json')).json()) as any;
    const answer =
      doc.paths['/self-api/v1/transcripts'].get.responses['200'].content['application/json'].schema;
    const item = answer.properties.data.properties.items.items;
    expect(Object.keys(item.properties)).toEqual(expect.arrayContaining(['id', 'name', 'snippet']));
    const snippet = item.properties.snippet.anyOf.find((s: any) => s.type === 'object');
    expect(snippet.required).toEqual(
      expect.arrayContaining(['segment', 'start', 'text', 'matches', 'truncated_start', 'truncated_end']),
    );
  });
});
