import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { newAffiliate } from '../test/factories';
import { codeFrom, linkFrom, startSmtp } from '../test/smtp';
import { createMailer } from '../modules/mail/mailer';
import { createLimiters } from '../modules/auth/rate-limits';
import { MAIL_STRINGS } from '../modules/mail/strings';

let smtp: Awaited<ReturnType<typeof startSmtp>>;
let h: Awaited<ReturnType<typeof testApp>>;
const ORIGIN = 'http://localhost';

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
beforeEach(() => {
  // Fresh limits per test, so one test's attempts do not throttle the next.
  h.deps.services.accounts.limiters = createLimiters(null);
});

type Json = { code: number; message: string; message_key?: string; data: any };

async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await h.app.request(`/common-api/v1${path}`, {
    method,
    headers: {
      origin: ORIGIN,
      'content-type': 'application/json',
      ...headers,
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('token='));
  const token = cookie ? cookie.split(';')[0]!.slice('token='.length) : null;
  return { res, json, token, cookies: res.headers.getSetCookie() };
}

const withToken = (token: string) => ({ cookie: `token=${token}` });

async function verifiedUser(email: string, password = 'correct horse 9') {
  const start = smtp.messages.length;
  await call('POST', '/signup', { email, password });
  const mail = await smtp.next(email, start);
  const done = await call('POST', '/complete-signup', { email, code: codeFrom(mail) });
  expect(done.json.code).toBe(200);
  return { token: done.token!, password };
}

describe('sign-up, verification, login, logout', () => {
  it('runs the whole flow with a real SMTP server', async () => {
    const start = smtp.messages.length;
    const signup = await call(
      'POST',
      '/signup',
      { email: 'Ada@Example.com', password: 'analytical1', name: 'Ada' },
      {
        cookie: 'i18n_redirected=de; clipscribe_REF_CODE=PARTNER1',
      },
    );
    expect(signup.json).toEqual({ code: 200, message: 'ok', data: { email: 'ada@example.com' } });

    const mail = await smtp.next('ada@example.com', start);
    expect(mail.subject).toBe(MAIL_STRINGS.de.verifySubject.replace('{{app}}', 'ClipScribe'));
    const code = codeFrom(mail);
    expect(mail.html).toContain(code);
    expect(linkFrom(mail).pathname).toBe('/de/register/verification');

    const early = await call('POST', '/login', { email: 'ada@example.com', password: 'analytical1' });
    expect(early.json).toMatchObject({
      code: 40301,
      message_key: 'errors.auth.unverified',
      data: { resend: true },
    });
    expect(early.res.status).toBe(403);

    const wrong = await call('POST', '/complete-signup', {
      email: 'ada@example.com',
      code: code === '000000' ? '111111' : '000000',
    });
    expect(wrong.json.code).toBe(40002);

    const done = await call('POST', '/complete-signup', { email: 'ada@example.com', code });
    expect(done.json.code).toBe(200);
    expect(done.json.data.user).toMatchObject({
      email: 'ada@example.com',
      name: 'Ada',
      email_verified: true,
      language: 'de',
      rank_name: 'Free',
    });
    expect(done.cookies.find((c) => c.startsWith('token='))).toMatch(/HttpOnly/);
    expect(done.cookies.find((c) => c.startsWith('token='))).toMatch(/SameSite=Lax/);
    expect(done.cookies.find((c) => c.startsWith('token='))).toMatch(/Max-Age=2592000/);

    const reused = await call('POST', '/complete-signup', { email: 'ada@example.com', code });
    expect(reused.json.code).not.toBe(200);

    const login = await call('POST', '/login', { email: 'ADA@example.com', password: 'analytical1' });
    expect(login.json.code).toBe(200);
    const token = login.token!;

    const me = await call('GET', '/user', undefined, withToken(token));
    expect(me.json.data.user.email).toBe('ada@example.com');
    expect(me.json.data.permissions_quota).toMatchObject({
      minutes_per_month: 30,
      minutes_used: 0,
      max_file_mb: 200,
      export_formats: ['txt', 'srt'],
      // What the plan lacks, with the cheapest plan that has it (common/ranks).
      export_formats_locked: [
        { format: 'vtt', rank: 'STARTER' },
        { format: 'docx', rank: 'STARTER' },
        { format: 'json', rank: 'STARTER' },
      ],
    });
    expect(me.json.data.rank).toMatchObject({ name: 'Free', customized: false });

    const bearer = await call('GET', '/user', undefined, { authorization: `Bearer ${token}` });
    expect(bearer.json.code).toBe(200);

    const out = await call('DELETE', '/logout', undefined, withToken(token));
    expect(out.json.code).toBe(200);
    const after = await call('GET', '/user', undefined, withToken(token));
    expect(after.res.status).toBe(401);
  });

  it('verifies by the link token and records the referral code', async () => {
    const { users } = await import('../db/schema');
    const { user: partner } = await newAffiliate(h.db, { email: 'partner@example.com', code: 'REF777' });
    const start = smtp.messages.length;
    await call(
      'POST',
      '/signup',
      { email: 'link@example.com', password: 'by the link 1' },
      { cookie: 'clipscribe_REF_CODE=ref777' },
    );
    const link = linkFrom(await smtp.next('link@example.com', start));
    const token = link.searchParams.get('token')!;
    const done = await call('POST', '/complete-signup', { token });
    expect(done.json.code).toBe(200);
    const { eq } = await import('drizzle-orm');
    const [row] = await h.db.select().from(users).where(eq(users.email, 'link@example.com'));
    expect(row).toMatchObject({ referralCode: 'REF777', referredBy: partner!.id });
    expect((await call('POST', '/complete-signup', { token })).json.code).toBe(40001);
  });

  it('gives the same answer for an unknown e-mail and a wrong password', async () => {
    await verifiedUser('known@example.com');
    const unknown = await call('POST', '/login', { email: 'nobody@example.com', password: 'whatever1' });
    const wrong = await call('POST', '/login', { email: 'known@example.com', password: 'whatever1' });
    expect(unknown.json).toEqual(wrong.json);
    expect(unknown.res.status).toBe(wrong.res.status);
  });

  it('refuses short and common passwords and malformed input without a 500', async () => {
    const short = await call('POST', '/signup', { email: 'x@example.com', password: '12345' });
    expect(short.json).toMatchObject({
      code: 422,
      data: { field_keys: { password: 'validation.passwordMin' } },
    });
    const common = await call('POST', '/signup', { email: 'x@example.com', password: 'password123' });
    expect(common.json).toMatchObject({
      code: 42201,
      data: { field_keys: { password: 'validation.passwordCommon' } },
    });
    for (const [path, body] of [
      ['/signup', '{not json'],
      ['/signup', { email: 12, password: [] }],
      ['/login', { email: 'a@b.c' }],
      ['/complete-signup', { email: 'a@b.c', code: 'abcdef' }],
      ['/reset-password', { token: 'short', password: 'x' }],
      ['/auth-google/login', { code: 1 }],
    ] as const) {
      const r = await call('POST', path, body);
      expect(r.res.status, path).toBeGreaterThanOrEqual(400);
      expect(r.res.status, path).toBeLessThan(500);
    }
  });

  it('answers a registered address like a new one and mails its owner instead (item 6)', async () => {
    await verifiedUser('taken@example.com');
    h.deps.services.accounts.limiters = createLimiters(null);
    const start = smtp.messages.length;
    const taken = await call('POST', '/signup', { email: 'taken@example.com', password: 'another one 1' });
    const fresh = await call('POST', '/signup', { email: 'fresh6@example.com', password: 'another one 1' });
    expect(taken.res.status).toBe(200);
    expect(taken.json).toEqual({ ...fresh.json, data: { email: 'taken@example.com' } });
    const mail = await smtp.next('taken@example.com', start);
    expect(mail.subject).toBe(MAIL_STRINGS.en.existsSubject.replace('{{app}}', 'ClipScribe'));
    expect(mail.text).toContain('http://localhost/login');
    expect(mail.text).toContain('http://localhost/forgetPassword');
    expect(mail.text).not.toMatch(/\b\d{6}\b/);
    // Nothing changed: the owner's password still works, the new one does not.
    expect(
      (await call('POST', '/login', { email: 'taken@example.com', password: 'correct horse 9' })).json.code,
    ).toBe(200);
    expect(
      (await call('POST', '/login', { email: 'taken@example.com', password: 'another one 1' })).json.code,
    ).toBe(40101);
  });

  it('never lets a second sign-up take over a pending one (item 2)', async () => {
    const { users } = await import('../db/schema');
    const { eq } = await import('drizzle-orm');
    await newAffiliate(h.db, { email: 'evil-partner@example.com', code: 'EVIL42' });

    // The victim signs up; the attacker signs up again with the same address before it is verified.
    const start = smtp.messages.length;
    await call('POST', '/signup', { email: 'victim@example.com', password: 'victim secret 1', name: 'Vic' });
    const first = await smtp.next('victim@example.com', start);
    const victimCode = codeFrom(first);
    h.deps.services.accounts.limiters = createLimiters(null);
    const attackerStart = smtp.messages.length;
    const attack = await call(
      'POST',
      '/signup',
      { email: 'victim@example.com', password: 'attacker pass 1', name: 'Mallory' },
      { cookie: 'clipscribe_REF_CODE=EVIL42', 'x-forwarded-for': '10.6.6.6' },
    );
    expect(attack.json).toEqual({ code: 200, message: 'ok', data: { email: 'victim@example.com' } });

    // Nothing of the pending sign-up changed.
    const [row] = await h.db.select().from(users).where(eq(users.email, 'victim@example.com'));
    expect(row).toMatchObject({ name: 'Vic', referralCode: null, referredBy: null, emailVerified: false });

    // The mailbox gets a link to choose the password, and no code that would confirm someone's password.
    const second = await smtp.next('victim@example.com', attackerStart);
    expect(second.subject).toBe(MAIL_STRINGS.en.chooseSubject.replace('{{app}}', 'ClipScribe'));
    expect(second.text).not.toMatch(/\b\d{6}\b/);
    expect(linkFrom(second).pathname).toBe('/resetPassword');

    // Any code mailed before is dead, and a re-send sends the choose-password link again.
    expect(
      (await call('POST', '/complete-signup', { email: 'victim@example.com', code: victimCode })).json.code,
    ).toBe(40002);
    h.deps.services.accounts.limiters = createLimiters(null);
    const resendStart = smtp.messages.length;
    await call('POST', '/resend-activate-email', { email: 'victim@example.com' });
    const resent = await smtp.next('victim@example.com', resendStart);
    expect(resent.text).not.toMatch(/\b\d{6}\b/);

    // The mailbox owner chooses the password; the attacker's never worked.
    const token = linkFrom(resent).searchParams.get('token')!;
    const done = await call('POST', '/reset-password', { token, password: 'victim chosen 2' });
    expect(done.json.code).toBe(200);
    expect(done.json.data.user).toMatchObject({
      email: 'victim@example.com',
      name: 'Vic',
      email_verified: true,
    });
    expect(
      (await call('POST', '/login', { email: 'victim@example.com', password: 'attacker pass 1' })).json.code,
    ).toBe(40101);
    expect(
      (await call('POST', '/login', { email: 'victim@example.com', password: 'victim chosen 2' })).json.code,
    ).toBe(200);
  });

  it('keeps the first password of a pending sign-up and lets its own code confirm it', async () => {
    const start = smtp.messages.length;
    await call('POST', '/signup', { email: 'firstpw@example.com', password: 'first secret 1' });
    await smtp.next('firstpw@example.com', start);
    h.deps.services.accounts.limiters = createLimiters(null);
    // The same person again with the same password: a plain re-send of a code.
    const again = smtp.messages.length;
    await call('POST', '/signup', {
      email: 'firstpw@example.com',
      password: 'first secret 1',
      name: 'Changed',
    });
    const code = codeFrom(await smtp.next('firstpw@example.com', again));
    const done = await call('POST', '/complete-signup', { email: 'firstpw@example.com', code });
    expect(done.json.code).toBe(200);
    expect(done.json.data.user.name).toBeNull();
    expect(
      (await call('POST', '/login', { email: 'firstpw@example.com', password: 'first secret 1' })).json.code,
    ).toBe(200);
  });

  it('quietly accepts and ignores a filled honeypot', async () => {
    const start = smtp.messages.length;
    const r = await call('POST', '/signup', {
      email: 'bot@example.com',
      password: 'bot bot bot 1',
      website: 'http://spam',
    });
    expect(r.json.code).toBe(200);
    // A real sign-up right after: once its mail is out, the bot's would have been too.
    await call('POST', '/signup', { email: 'honest-person@example.com', password: 'after the bot 1' });
    await smtp.next('honest-person@example.com', start);
    expect(smtp.messages.slice(start).some((m) => JSON.stringify(m.to).includes('bot@example.com'))).toBe(
      false,
    );
  });

  it('refuses state-changing calls from another origin', async () => {
    const r = await call(
      'POST',
      '/login',
      { email: 'known@example.com', password: 'x' },
      { origin: 'https://evil.example' },
    );
    expect(r.res.status).toBe(403);
    expect(r.json.message_key).toBe('errors.api.badOrigin');
  });
});

describe('password reset and sessions', () => {
  it('resets with a single-use token, revokes other sessions and logs in', async () => {
    const { token: first } = await verifiedUser('reset@example.com');
    const second = (await call('POST', '/login', { email: 'reset@example.com', password: 'correct horse 9' }))
      .token!;

    const unknown = await call('POST', '/forgot-password', { email: 'ghost@example.com' });
    const start = smtp.messages.length;
    const known = await call('POST', '/forgot-password', { email: 'reset@example.com' });
    expect(known.json).toEqual(unknown.json);
    const link = linkFrom(await smtp.next('reset@example.com', start));
    expect(link.pathname).toBe('/resetPassword');
    const resetToken = link.searchParams.get('token')!;

    const weak = await call('POST', '/reset-password', { token: resetToken, password: 'qwerty' });
    expect(weak.json.code).toBe(42201);
    const done = await call('POST', '/reset-password', { token: resetToken, password: 'brand new secret 2' });
    expect(done.json.code).toBe(200);
    expect(
      (await call('POST', '/reset-password', { token: resetToken, password: 'again and again 3' })).json.code,
    ).toBe(40001);

    for (const old of [first, second]) {
      expect((await call('GET', '/user', undefined, withToken(old))).res.status).toBe(401);
    }
    expect((await call('GET', '/user', undefined, withToken(done.token!))).json.code).toBe(200);
    expect(
      (await call('POST', '/login', { email: 'reset@example.com', password: 'correct horse 9' })).json.code,
    ).toBe(40101);
  });

  it('never puts a forged Host into the links it mails (reset-link poisoning)', async () => {
    await verifiedUser('poison@example.com');
    const start = smtp.messages.length;
    // An attacker's request: Host and Origin agree, so the origin check passes.
    const res = await h.app.request('http://evil.example/common-api/v1/forgot-password', {
      method: 'POST',
      headers: { origin: 'http://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'poison@example.com' }),
    });
    expect(res.status).toBe(200);
    const link = linkFrom(await smtp.next('poison@example.com', start));
    expect(link.hostname).not.toBe('evil.example');
    expect(link.hostname).toBe('localhost');
  });

  it('expires reset tokens after 30 minutes', async () => {
    await verifiedUser('late@example.com');
    const start = smtp.messages.length;
    await call('POST', '/forgot-password', { email: 'late@example.com' });
    const token = linkFrom(await smtp.next('late@example.com', start)).searchParams.get('token')!;
    const real = h.deps.services.accounts.now;
    h.deps.services.accounts.now = () => new Date(Date.now() + 31 * 60 * 1000);
    try {
      expect((await call('POST', '/reset-password', { token, password: 'too late now 4' })).json.code).toBe(
        40001,
      );
    } finally {
      h.deps.services.accounts.now = real;
    }
  });

  it('changes the password only with the current one and ends the other sessions', async () => {
    const { token, password } = await verifiedUser('profile@example.com');
    const other = (await call('POST', '/login', { email: 'profile@example.com', password })).token!;
    const bad = await call(
      'PUT',
      '/user',
      { current_password: 'nope nope', new_password: 'next secret 5' },
      withToken(token),
    );
    expect(bad.json.code).toBe(40102);
    const good = await call(
      'PUT',
      '/user',
      { current_password: password, new_password: 'next secret 5', name: 'Pro', language: 'ja' },
      withToken(token),
    );
    expect(good.json.data.user).toMatchObject({ name: 'Pro', language: 'ja' });
    expect((await call('GET', '/user', undefined, withToken(token))).json.code).toBe(200);
    expect((await call('GET', '/user', undefined, withToken(other))).res.status).toBe(401);
    expect((await call('PUT', '/user', { language: 'xx' }, withToken(token))).json.code).toBe(422);
  });

  it('deletes the account only with the password', async () => {
    const { token, password } = await verifiedUser('leaving@example.com');
    expect(
      (await call('PUT', '/user', { delete: true, password: 'wrong one' }, withToken(token))).json.code,
    ).toBe(40102);
    expect((await call('PUT', '/user', { delete: true, password }, withToken(token))).json.code).toBe(200);
    expect((await call('GET', '/user', undefined, withToken(token))).res.status).toBe(401);
    expect((await call('POST', '/login', { email: 'leaving@example.com', password })).json.code).toBe(40101);
  });
});

describe('rate limits', () => {
  it('limits resending to one per minute per address', async () => {
    await call('POST', '/signup', { email: 'slow@example.com', password: 'slow and steady 1' });
    const again = await call('POST', '/resend-activate-email', { email: 'slow@example.com' });
    expect(again.json.code).toBe(42901);
    expect(again.res.status).toBe(429);
    expect(again.json.data.retry_after).toBeGreaterThan(0);
  });

  it('limits login attempts per account', async () => {
    await verifiedUser('guess@example.com');
    const codes: number[] = [];
    for (let i = 0; i < 12; i++) {
      codes.push(
        (await call('POST', '/login', { email: 'guess@example.com', password: `guess-${i}` })).json.code,
      );
    }
    // From one address: 5 failures, then that address waits.
    expect(codes.slice(0, 5).every((c) => c === 40101)).toBe(true);
    expect(codes.slice(5).every((c) => c === 42901)).toBe(true);
  });
});

describe('Google login without configuration', () => {
  it('answers with a clear error', async () => {
    const r = await call('POST', '/auth-google/auth-url', {});
    expect(r.json).toMatchObject({ code: 50301, message_key: 'errors.auth.googleNotConfigured' });
  });
});

describe('API keys and the password', () => {
  async function keyCall(method: string, path: string, token: string, body?: unknown) {
    const res = await h.app.request(`/self-api/v1${path}`, {
      method,
      headers: { origin: ORIGIN, 'content-type': 'application/json', ...withToken(token) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Json;
  }
  const works = async (key: string) =>
    (await h.app.request('/self-api/v1/transcripts', { headers: { authorization: `Bearer ${key}` } })).status;

  it('mails the owner, in their language, when a key is created', async () => {
    const { token } = await verifiedUser('keymail@example.com');
    await call('PUT', '/user', { language: 'de' }, withToken(token));
    const start = smtp.messages.length;
    const made = await keyCall('POST', '/api-keys', token, { name: 'Nightly <import>', scope: 'read' });
    expect(made.code).toBe(200);
    const mail = await smtp.next('keymail@example.com', start);
    expect(mail.subject).toBe('Ein neuer API-Schlüssel für ClipScribe wurde erstellt');
    expect(mail.html).toContain('Nightly &lt;import&gt;');
    expect(mail.html).toContain(made.data.prefix);
    expect(mail.html).toContain('nur lesen');
    expect(mail.html).not.toContain(made.data.key);
  });

  it('revokes every key with a password change or reset when asked, and on its own', async () => {
    const { token } = await verifiedUser('revoke@example.com');
    const newKey = async (t: string) =>
      (await keyCall('POST', '/api-keys', t, { name: 'k' })).data.key as string;
    const a = await newKey(token);
    // A password change without the option keeps the keys.
    const kept = await call(
      'PUT',
      '/user',
      { current_password: 'correct horse 9', new_password: 'second secret 22' },
      withToken(token),
    );
    expect(kept.json.code).toBe(200);
    expect(await works(a)).toBe(200);
    // With it, they end.
    const changed = await call(
      'PUT',
      '/user',
      { current_password: 'second secret 22', new_password: 'third secret 333', revoke_api_keys: true },
      withToken(token),
    );
    expect(changed.json.code).toBe(200);
    expect(await works(a)).toBe(401);

    // A reset, as the form posts it (checkbox `on`).
    const before = smtp.messages.length;
    const b = await newKey(token);
    await smtp.next('revoke@example.com', before); // the new key's mail
    const start = smtp.messages.length;
    await call('POST', '/forgot-password', { email: 'revoke@example.com' });
    const resetToken = linkFrom(await smtp.next('revoke@example.com', start)).searchParams.get('token')!;
    const reset = await call('POST', '/reset-password', {
      token: resetToken,
      password: 'fourth secret 4444',
      revoke_api_keys: 'on',
    });
    expect(reset.json.code).toBe(200);
    expect(await works(b)).toBe(401);

    // "Revoke all" on its own: every key of the account, never a key's own call.
    const session = reset.token!;
    const c = await newKey(session);
    const d = await newKey(session);
    const byKey = await h.app.request('/self-api/v1/api-keys', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${c}` },
    });
    expect(byKey.status).toBe(403);
    expect(await keyCall('DELETE', '/api-keys', session)).toEqual({
      code: 200,
      message: 'ok',
      data: { revoked: 2 },
    });
    expect(await works(c)).toBe(401);
    expect(await works(d)).toBe(401);
  });
});
