import { describe, expect, it } from 'vitest';
import { REF_COOKIE, referralCookieFor } from './cookies';

describe('referralCookieFor (90 days, first click wins)', () => {
  it('writes a valid ?ref when none is set', () => {
    expect(referralCookieFor('?ref=abc123&x=1', '', false)).toBe(
      `${REF_COOKIE}=ABC123; Max-Age=7776000; Path=/; SameSite=Lax`,
    );
  });

  it('keeps the first one, ignores bad codes and crawlers', () => {
    expect(referralCookieFor('?ref=NEWONE', `a=1; ${REF_COOKIE}=FIRST`, false)).toBeNull();
    expect(referralCookieFor('?ref=a;b=c', '', false)).toBeNull();
    expect(referralCookieFor('?x=1', '', false)).toBeNull();
    expect(referralCookieFor('?ref=abc123', '', true)).toBeNull();
  });
});
