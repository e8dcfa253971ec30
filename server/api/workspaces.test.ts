import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { signedInUser } from '../test/users';
import { linkFrom, startSmtp } from '../test/smtp';
import { createMailer } from '../modules/mail/mailer';
import { apiKeys, users, workspaceInvitations } from '../db/schema';
import { resolveActor } from '../modules/workspaces/actor';
import { WORKSPACE_COOKIE } from '../../common/cookies';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let h: Awaited<ReturnType<typeof testApp>>;
type Who = Awaited<ReturnType<typeof signedInUser>>;

beforeAll(async () => {
  smtp = await startSmtp();
  const mailer = createMailer({
    smtpUrl: smtp.url,
    from: 'ClipScribe <no-reply@test>',
    outboxDir: 'tmp/outbox',
    logger: console,
  });
  h = await testApp({}, {}, { mailer });
});
afterAll(async () => {
  await h.close();
  await smtp.close();
});

const call = (
  who: Who | null,
  method: string,
  path: string,
  body?: unknown,
  extra: Record<string, string> = {},
) => h.api(method, path, { ...(who?.headers ?? { origin: 'http://localhost' }), ...extra }, body);

async function team(owner: Who, name = 'Podcast') {
  const { json } = await call(owner, 'POST', '/workspaces', { name });
  expect(json.code).toBe(200);
  return json.data.id as string;
}

/** Invites `email` as `role` and returns the link's token from the mail. */
async function invite(by: Who, workspaceId: string, email: string, role = 'editor') {
  const before = smtp.messages.length;
  const { json } = await call(by, 'POST', `/workspaces/${workspaceId}/invitations`, { email, role });
  expect(json.code, JSON.stringify(json)).toBe(200);
  const mail = await smtp.next(email.toLowerCase(), before);
  return { id: json.data.id as string, token: linkFrom(mail).searchParams.get('token')!, mail };
}

/** A verified account signed in with a given address. */
async function account(email: string, language = 'en') {
  const who = await signedInUser(h.db);
  await h.db.update(users).set({ email, language }).where(eq(users.id, who.user.id));
  return { ...who, user: { ...who.user, email } };
}

describe('workspaces', () => {
  it('lists the personal workspace of a new account as current', async () => {
    const me = await signedInUser(h.db);
    const { json } = await call(me, 'GET', '/workspaces');
    expect(json.data.items).toEqual([
      expect.objectContaining({ kind: 'personal', name: null, role: 'owner' }),
    ]);
    expect(json.data.current).toBe(json.data.items[0].id);
  });

  it('creates a team workspace and switches to it with the cookie', async () => {
    const me = await signedInUser(h.db);
    const id = await team(me, 'Research group');
    const switched = await call(me, 'PUT', '/workspaces/current', { workspace_id: id });
    expect(switched.json.data).toMatchObject({ id, kind: 'team', name: 'Research group', role: 'owner' });
    const cookie = switched.res.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`${WORKSPACE_COOKIE}=${id}`);
    expect(cookie).toMatch(/HttpOnly/i);
    const current = await call(me, 'GET', '/workspaces/current', undefined, {
      cookie: `${me.headers.cookie}; ${WORKSPACE_COOKIE}=${id}`,
    });
    expect(current.json.data).toMatchObject({
      id,
      members: 1,
      // Free has one seat: a bigger plan has more.
      seats: { taken: 1, total: 1, max: 1, change: 'plans' },
      rank_name: 'Free',
    });
  });

  it('never lets a header or a cookie name a workspace the caller is not a member of', async () => {
    const me = await signedInUser(h.db);
    const other = await signedInUser(h.db);
    const theirs = await team(other);
    const byHeader = await call(me, 'GET', '/workspaces/current', undefined, { 'x-workspace': theirs });
    expect(byHeader.json.code).toBe(40461);
    const bySwitch = await call(me, 'PUT', '/workspaces/current', { workspace_id: theirs });
    expect(bySwitch.json.code).toBe(40461);
    // A stale or forged cookie falls back to the personal workspace.
    const byCookie = await call(me, 'GET', '/workspaces/current', undefined, {
      cookie: `${me.headers.cookie}; ${WORKSPACE_COOKIE}=${theirs}`,
    });
    expect(byCookie.json.data).toMatchObject({ kind: 'personal' });
    expect((await call(me, 'GET', `/workspaces/${theirs}`)).json.code).toBe(40461);
    expect((await call(me, 'GET', `/workspaces/${theirs}/members`)).json.code).toBe(40461);
    expect(
      (await call(me, 'GET', '/workspaces/current', undefined, { 'x-workspace': 'nope' })).json.code,
    ).toBe(40461);
  });

  it('refuses invitations past the plan’s seats, naming the plan with more', async () => {
    const owner = await signedInUser(h.db);
    const id = await team(owner);
    const { json } = await call(owner, 'POST', `/workspaces/${id}/invitations`, { email: 'x@example.com' });
    expect(json).toMatchObject({
      code: 40363,
      message_key: 'errors.workspaces.seatsFull',
      data: { seats: 1, rank: 'BASIC' },
    });
  });

  it('takes no invitations into a personal workspace, which cannot be left', async () => {
    const owner = await signedInUser(h.db, { rankName: 'ADVANCED' });
    const personal = (await call(owner, 'GET', '/workspaces')).json.data.current;
    expect(
      (await call(owner, 'POST', `/workspaces/${personal}/invitations`, { email: 'x@example.com' })).json
        .code,
    ).toBe(40366);
    expect((await call(owner, 'POST', `/workspaces/${personal}/leave`)).json.code).toBe(40366);
    expect((await call(owner, 'DELETE', `/workspaces/${personal}`, { confirm_name: '' })).json.code).toBe(
      40366,
    );
  });
});

describe('invitations', () => {
  it('mails a single-use link in the invitee’s language, bound to the invited address', async () => {
    const owner = await signedInUser(h.db, { rankName: 'BASIC' });
    const id = await team(owner, 'Redaktion');
    const invitee = await account(`de-${Date.now()}@example.com`, 'de');
    const { token, mail } = await invite(owner, id, invitee.user.email.toUpperCase(), 'viewer');
    expect(mail.subject).toContain('Redaktion');
    expect(mail.text).toContain('lädt Sie ein');
    expect(mail.html).toContain('Einladung ansehen');
    expect(linkFrom(mail).pathname).toBe('/de/invitation');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the hash is stored.
    const [row] = await h.db
      .select()
      .from(workspaceInvitations)
      .where(eq(workspaceInvitations.workspaceId, id));
    expect(row!.tokenHash).not.toContain(token);

    const preview = await call(null, 'GET', `/invitations/preview?token=${token}`);
    expect(preview.json.data).toMatchObject({
      workspace: { id, name: 'Redaktion' },
      role: 'viewer',
      email: invitee.user.email,
    });

    // Another account holding the link cannot use it; the invitation stays open for its addressee.
    const stranger = await signedInUser(h.db);
    expect((await call(stranger, 'POST', '/invitations/accept', { token })).json.code).toBe(40365);
    const accepted = await call(invitee, 'POST', '/invitations/accept', { token });
    expect(accepted.json.data.workspace).toMatchObject({ id, role: 'viewer' });
    expect(accepted.res.headers.get('set-cookie')).toContain(`${WORKSPACE_COOKIE}=${id}`);
    // Used once: a second accept, a decline or a preview all find nothing.
    expect((await call(invitee, 'POST', '/invitations/accept', { token })).json.code).toBe(40463);
    expect((await call(invitee, 'POST', '/invitations/decline', { token })).json.code).toBe(40463);
    expect((await call(null, 'GET', `/invitations/preview?token=${token}`)).json.code).toBe(40463);
    const members = (await call(owner, 'GET', `/workspaces/${id}/members`)).json.data.items;
    expect(members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.user.email, 'owner'],
      [invitee.user.email, 'viewer'],
    ]);
  });

  it('answers a guessed, expired, revoked or replaced link the same way', async () => {
    const owner = await signedInUser(h.db, { rankName: 'BASIC' });
    const id = await team(owner);
    const email = `late-${Date.now()}@example.com`;
    const invitee = await account(email);
    expect((await call(invitee, 'POST', '/invitations/accept', { token: 'A'.repeat(43) })).json.code).toBe(
      40463,
    );
    const first = await invite(owner, id, email);
    await h.db.update(workspaceInvitations).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await call(invitee, 'POST', '/invitations/accept', { token: first.token })).json.code).toBe(
      40463,
    );
    // Sending again (a minute later) replaces the link: the old one is dead, the new one works.
    await h.db
      .update(workspaceInvitations)
      .set({ createdAt: new Date(Date.now() - 120_000), expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(workspaceInvitations.id, first.id));
    const second = await invite(owner, id, email);
    expect((await call(invitee, 'POST', '/invitations/accept', { token: first.token })).json.code).toBe(
      40463,
    );
    expect((await call(owner, 'DELETE', `/workspaces/${id}/invitations/${second.id}`)).json.code).toBe(200);
    expect((await call(invitee, 'POST', '/invitations/accept', { token: second.token })).json.code).toBe(
      40463,
    );
    // Sending the same address twice within a minute is refused, not mailed.
    await invite(owner, id, email);
    expect((await call(owner, 'POST', `/workspaces/${id}/invitations`, { email })).json.code).toBe(429);
  });

  it('leads an address without an account through sign-up to its waiting invitation', async () => {
    const owner = await signedInUser(h.db, { rankName: 'BASIC' });
    const id = await team(owner, 'Agency');
    const email = `new-${Date.now()}@example.com`;
    const before = smtp.messages.length;
    await call(owner, 'POST', `/workspaces/${id}/invitations`, { email, role: 'editor', language: 'fr' });
    const mail = await smtp.next(email, before);
    expect(linkFrom(mail).pathname).toBe('/fr/invitation');
    expect(mail.subject).toContain('vous invite');
    // The account made later with that address (verified) finds it in its list and accepts by id.
    const joined = await account(email);
    const waiting = (await call(joined, 'GET', '/invitations')).json.data.items;
    expect(waiting).toEqual([expect.objectContaining({ workspace: { id, name: 'Agency' }, role: 'editor' })]);
    const unverified = await account(`u-${email}`);
    await h.db
      .update(users)
      .set({ emailVerified: false, email: `x-${email}` })
      .where(eq(users.id, unverified.user.id));
    expect((await call(joined, 'POST', '/invitations/accept', { id: waiting[0].id })).json.code).toBe(200);
    expect((await call(joined, 'GET', '/invitations')).json.data.items).toEqual([]);
  });

  it('lets an invitee decline, and nobody invite with a role above their own', async () => {
    const owner = await signedInUser(h.db, { rankName: 'ADVANCED' });
    const id = await team(owner);
    const a = await account(`decl-${Date.now()}@example.com`);
    const { token } = await invite(owner, id, a.user.email);
    expect((await call(a, 'POST', '/invitations/decline', { token })).json.data.status).toBe('declined');
    expect((await call(a, 'GET', '/workspaces')).json.data.items).toHaveLength(1);
    expect(
      (await call(owner, 'POST', `/workspaces/${id}/invitations`, { email: 'o@example.com', role: 'owner' }))
        .json.code,
    ).toBe(422);
    const editor = await account(`ed-${Date.now()}@example.com`);
    const inv = await invite(owner, id, editor.user.email, 'editor');
    await call(editor, 'POST', '/invitations/accept', { token: inv.token });
    const refused = await call(editor, 'POST', `/workspaces/${id}/invitations`, {
      email: 'z@example.com',
      role: 'viewer',
    });
    expect(refused.json).toMatchObject({ code: 40361, data: { role: 'editor', needed: 'admin' } });
    expect((await call(editor, 'GET', `/workspaces/${id}/invitations`)).json.code).toBe(40361);
  });
});

describe('members and roles', () => {
  async function teamOf(roles: string[]) {
    const owner = await signedInUser(h.db, { rankName: 'ADVANCED' });
    const id = await team(owner);
    const members: Who[] = [];
    for (const [i, role] of roles.entries()) {
      const m = await account(`m${i}-${Date.now()}-${Math.random()}@example.com`);
      const { token } = await invite(owner, id, m.user.email, role === 'owner' ? 'admin' : role);
      expect((await call(m, 'POST', '/invitations/accept', { token })).json.code).toBe(200);
      if (role === 'owner')
        await call(owner, 'PATCH', `/workspaces/${id}/members/${m.user.id}`, { role: 'owner' });
      members.push(m);
    }
    return { id, owner, members };
  }

  it('lets nobody raise their own role or touch the owner’s from below', async () => {
    const { id, owner, members } = await teamOf(['admin', 'editor']);
    const [admin, editor] = members as [Who, Who];
    const role = (who: Who, target: Who, r: string) =>
      call(who, 'PATCH', `/workspaces/${id}/members/${target.user.id}`, { role: r }).then((x) => x.json.code);
    expect(await role(editor, editor, 'admin')).toBe(40361);
    expect(await role(admin, admin, 'owner')).toBe(40361);
    expect(await role(editor, admin, 'viewer')).toBe(40361);
    expect(await role(admin, owner, 'viewer')).toBe(40361);
    expect(await role(admin, editor, 'owner')).toBe(40361);
    expect(await role(owner, owner, 'admin')).toBe(40361);
    expect(await role(admin, editor, 'admin')).toBe(200);
    expect((await call(admin, 'DELETE', `/workspaces/${id}/members/${owner.user.id}`)).json.code).toBe(40361);
  });

  it('keeps one owner: the last cannot leave, ownership is transferred', async () => {
    const { id, owner, members } = await teamOf(['viewer']);
    const [viewer] = members as [Who];
    expect((await call(owner, 'POST', `/workspaces/${id}/leave`)).json.code).toBe(40361);
    expect(
      (await call(viewer, 'POST', `/workspaces/${id}/transfer`, { user_id: viewer.user.id })).json.code,
    ).toBe(40361);
    expect(
      (await call(owner, 'POST', `/workspaces/${id}/transfer`, { user_id: viewer.user.id })).json.code,
    ).toBe(200);
    const roles = (await call(viewer, 'GET', `/workspaces/${id}/members`)).json.data.items.map(
      (m: { user_id: string; role: string }) => [m.user_id, m.role],
    );
    expect(roles).toEqual([
      [owner.user.id, 'admin'],
      [viewer.user.id, 'owner'],
    ]);
    expect((await call(owner, 'POST', `/workspaces/${id}/leave`)).json.code).toBe(200);
    expect((await call(owner, 'GET', `/workspaces/${id}`)).json.code).toBe(40461);
  });

  it('ends a removed member’s access at once, their API keys included', async () => {
    const { id, owner, members } = await teamOf(['editor']);
    const [editor] = members as [Who];
    // The editor's key for the team workspace.
    await call(editor, 'PUT', '/workspaces/current', { workspace_id: id });
    const made = await call(editor, 'POST', '/api-keys', { name: 'team' }, { 'x-workspace': id });
    expect(made.json.code).toBe(200);
    const key = made.json.data.key as string;
    const byKey = (path: string) => h.api('GET', path, { authorization: `Bearer ${key}` });
    const listed = await byKey('/transcripts');
    expect(listed.json.code).toBe(200);
    expect((await call(owner, 'DELETE', `/workspaces/${id}/members/${editor.user.id}`)).json.code).toBe(200);
    expect((await byKey('/transcripts')).json.code).toBe(401);
    expect((await call(editor, 'GET', `/workspaces/${id}`)).json.code).toBe(40461);
    expect(
      (await call(editor, 'GET', '/workspaces/current', undefined, { 'x-workspace': id })).json.code,
    ).toBe(40461);
  });

  it('deletes a team workspace only for an owner who types its name', async () => {
    const { id, owner, members } = await teamOf(['admin']);
    const [admin] = members as [Who];
    expect((await call(admin, 'DELETE', `/workspaces/${id}`, { confirm_name: 'Podcast' })).json.code).toBe(
      40361,
    );
    expect((await call(owner, 'DELETE', `/workspaces/${id}`, { confirm_name: 'Podcas' })).json.code).toBe(
      422,
    );
    expect((await call(owner, 'DELETE', `/workspaces/${id}`, { confirm_name: 'Podcast' })).json.code).toBe(
      200,
    );
    expect((await call(admin, 'GET', '/workspaces')).json.data.items).toHaveLength(1);
  });

  it('keeps workspace management away from API keys', async () => {
    const me = await signedInUser(h.db);
    const key = (await call(me, 'POST', '/api-keys', { name: 'k' })).json.data.key as string;
    const res = await h.api('GET', '/workspaces', { authorization: `Bearer ${key}` });
    expect(res.json.code).toBe(40341);
    // A key acts in its own workspace: naming another one is refused before anything is looked up.
    const other = await signedInUser(h.db);
    const theirs = await team(other);
    const [row] = await h.db.select().from(apiKeys).where(eq(apiKeys.userId, me.user.id));
    const asKey = { user: me.user, key: { id: row!.id, workspaceId: row!.workspaceId } };
    await expect(resolveActor(h.db, asKey, { header: theirs })).rejects.toMatchObject({ code: 40362 });
    expect(await resolveActor(h.db, asKey, { cookie: theirs })).toMatchObject({
      workspace: { id: row!.workspaceId, kind: 'personal' },
      apiKeyId: row!.id,
    });
  });
});
