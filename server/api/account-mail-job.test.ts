import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp } from '../test/harness';
import { emailTokens, users } from '../db/schema';
import { hashPassword } from '../modules/auth/passwords';
import { forgotPassword, resendActivation, signup } from '../modules/accounts/accounts';
import { runAccountMail, type AccountMailJob } from '../modules/accounts/account-mail';
import type { AccountDeps } from '../modules/accounts/deps';
import type { MailMessage } from '../modules/mail/mailer';
import { createLimiters } from '../modules/auth/rate-limits';

// Forgot-password, sign-up and re-send do the same work on the request
// path for every address — limits, (for sign-up) one argon2 computation, one queued job — and the
// address-dependent work (lookup, rows, tokens, mail) runs in the account-mail job.
let h: Awaited<ReturnType<typeof testApp>>;
const queued: AccountMailJob[] = [];
const mails: MailMessage[] = [];
let deps: AccountDeps;
const meta = { origin: 'http://localhost', ip: '192.0.2.1', userAgent: 'test', lang: 'en' as const };

beforeAll(async () => {
  h = await testApp();
  deps = {
    ...h.deps.services.accounts,
    queueAccountMail: async (job) => void queued.push(job),
    sendMail: async (m) => void mails.push(m),
  };
  await h.db.insert(users).values([
    { email: 'known@example.com', emailVerified: true, passwordHash: await hashPassword('known pass 1') },
    {
      email: 'pending@example.com',
      emailVerified: false,
      passwordHash: await hashPassword('pending pass 1'),
    },
  ]);
});
afterAll(() => h.close());

const tokens = async () => h.db.select().from(emailTokens);

describe('account mails are a job, queued alike for every address', () => {
  it('forgot-password: one job for a known and for an unknown address, no token yet', async () => {
    queued.length = 0;
    await forgotPassword(deps, 'known@example.com', meta);
    await forgotPassword(deps, 'ghost@example.com', meta);
    expect(queued).toEqual([
      { kind: 'forgot', email: 'known@example.com', origin: 'http://localhost' },
      { kind: 'forgot', email: 'ghost@example.com', origin: 'http://localhost' },
    ]);
    expect(await tokens()).toHaveLength(0);

    // The job does the rest: a token and a mail for the account, nothing for the stranger.
    mails.length = 0;
    for (const job of queued) await runAccountMail(deps, job);
    expect(mails.map((m) => m.to)).toEqual(['known@example.com']);
    expect(await tokens()).toHaveLength(1);
  });

  it('sign-up: one job for a new, a pending and a registered address, nothing written yet', async () => {
    queued.length = 0;
    const input = (email: string) => ({ email, password: 'some password 1' });
    await signup(deps, input('new@example.com'), { ...meta, refCode: null });
    await signup(deps, input('pending@example.com'), { ...meta, refCode: null });
    await signup(deps, input('known@example.com'), { ...meta, refCode: null });
    expect(queued.map((j) => j.kind)).toEqual(['signup', 'signup', 'signup']);
    expect(await h.db.select().from(users).where(eq(users.email, 'new@example.com'))).toHaveLength(0);

    mails.length = 0;
    for (const job of queued) await runAccountMail(deps, job);
    expect(mails.map((m) => m.to)).toEqual(['new@example.com', 'pending@example.com', 'known@example.com']);
    expect(await h.db.select().from(users).where(eq(users.email, 'new@example.com'))).toHaveLength(1);
  });

  it('re-send: one job whatever the address', async () => {
    queued.length = 0;
    deps.limiters = createLimiters(null);
    await resendActivation(deps, 'nobody@example.com', meta);
    await resendActivation(deps, 'known@example.com', meta);
    expect(queued).toEqual([
      { kind: 'resend', email: 'nobody@example.com', origin: 'http://localhost' },
      { kind: 'resend', email: 'known@example.com', origin: 'http://localhost' },
    ]);
  });
});
