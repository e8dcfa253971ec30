import { describe, expect, it } from 'vitest';
import { usagePeriod } from './period';

const d = (s: string) => new Date(s);

describe('usagePeriod', () => {
  it('is the calendar month without an anchor', () => {
    expect(usagePeriod(null, d('2026-02-14T10:00:00Z'))).toEqual({
      start: d('2026-02-01T00:00:00Z'),
      end: d('2026-03-01T00:00:00Z'),
    });
    expect(usagePeriod(null, d('2026-12-31T23:59:59Z')).end).toEqual(d('2027-01-01T00:00:00Z'));
  });

  it('counts months from the billing anchor', () => {
    const anchor = d('2026-01-15T08:30:00Z');
    expect(usagePeriod(anchor, d('2026-01-15T08:30:00Z'))).toEqual({
      start: anchor,
      end: d('2026-02-15T08:30:00Z'),
    });
    expect(usagePeriod(anchor, d('2026-03-15T08:29:59Z'))).toEqual({
      start: d('2026-02-15T08:30:00Z'),
      end: d('2026-03-15T08:30:00Z'),
    });
    // A yearly plan's allowance still resets monthly; an anchor in the future is handled too.
    expect(usagePeriod(anchor, d('2026-11-20T00:00:00Z')).start).toEqual(d('2026-11-15T08:30:00Z'));
    expect(usagePeriod(d('2026-05-10T00:00:00Z'), d('2026-05-01T00:00:00Z'))).toEqual({
      start: d('2026-04-10T00:00:00Z'),
      end: d('2026-05-10T00:00:00Z'),
    });
  });

  it('clamps an anchor on the 31st to shorter months', () => {
    const anchor = d('2026-01-31T12:00:00Z');
    expect(usagePeriod(anchor, d('2026-02-28T13:00:00Z'))).toEqual({
      start: d('2026-02-28T12:00:00Z'),
      end: d('2026-03-31T12:00:00Z'),
    });
  });
});
