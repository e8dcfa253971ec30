import { describe, it, expect, afterEach } from 'vitest';
import { formatDate, formatDuration, formatName, formatTime, maskEmail } from './format';

describe('formatDate', () => {
  it('formats seconds in UTC as "Mon DD YYYY"', () => {
    expect(formatDate(0)).toBe('Jan 01 1970');
    expect(formatDate(Date.UTC(2024, 0, 5) / 1000)).toBe('Jan 05 2024');
    expect(formatDate(Date.UTC(2024, 11, 31, 23, 59, 59) / 1000)).toBe('Dec 31 2024');
    expect(formatDate(Date.UTC(2024, 1, 29, 12) / 1000 + 0.75)).toBe('Feb 29 2024');
  });

  it('uses UTC, not the local day, at midnight boundaries', () => {
    expect(formatDate(Date.UTC(2023, 5, 15) / 1000 - 1)).toBe('Jun 14 2023');
    expect(formatDate(Date.UTC(2023, 5, 15) / 1000)).toBe('Jun 15 2023');
  });

  describe('in a non-UTC process time zone', () => {
    const originalTz = process.env.TZ;
    afterEach(() => {
      if (originalTz === undefined) delete process.env.TZ;
      else process.env.TZ = originalTz;
    });
    it.each(['Pacific/Kiritimati', 'America/Los_Angeles'])('%s still formats the UTC date', (tz) => {
      process.env.TZ = tz; // Node re-reads TZ on assignment.
      expect(formatDate(Date.UTC(2023, 11, 31, 23, 30) / 1000)).toBe('Dec 31 2023');
      expect(formatDate(Date.UTC(2024, 0, 1, 0, 30) / 1000)).toBe('Jan 01 2024');
    });
  });

  it('handles every month abbreviation', () => {
    const got = Array.from({ length: 12 }, (_, m) => formatDate(Date.UTC(2021, m, 10) / 1000).slice(0, 3));
    expect(got).toEqual(['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);
  });

  it('treats the value as seconds, not milliseconds', () => {
    expect(formatDate(1_700_000_000)).toBe('Nov 14 2023');
  });

  it('returns "--" for missing or non-numeric values', () => {
    for (const v of [undefined, null, NaN, Infinity, -Infinity, '1700000000', '', {}, [], true, 1e13]) {
      expect(formatDate(v), String(v)).toBe('--');
    }
  });
});

describe('formatTime', () => {
  it('uses m:ss below one hour', () => {
    expect(formatTime(0)).toBe('0:00');
    expect(formatTime(5)).toBe('0:05');
    expect(formatTime(59.999)).toBe('0:59');
    expect(formatTime(60)).toBe('1:00');
    expect(formatTime(65.9)).toBe('1:05');
    expect(formatTime(600)).toBe('10:00');
    expect(formatTime(3599)).toBe('59:59');
    expect(formatTime(3599.99)).toBe('59:59');
  });

  it('uses h:mm:ss from one hour', () => {
    expect(formatTime(3600)).toBe('1:00:00');
    expect(formatTime(3725)).toBe('1:02:05');
    expect(formatTime(36000 + 59 * 60 + 59)).toBe('10:59:59');
    expect(formatTime(100 * 3600)).toBe('100:00:00');
  });

  it('clamps invalid input to 0:00', () => {
    for (const v of [-1, -0.5, -3600, NaN, Infinity, -Infinity]) {
      expect(formatTime(v), String(v)).toBe('0:00');
    }
  });
});

describe('formatDuration', () => {
  it('omits leading zero units', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(45)).toBe('45s');
    expect(formatDuration(59.9)).toBe('59s');
    expect(formatDuration(60)).toBe('1m 0s');
    expect(formatDuration(123)).toBe('2m 3s');
    expect(formatDuration(3599)).toBe('59m 59s');
  });

  it('keeps minutes and seconds once hours are shown', () => {
    expect(formatDuration(3600)).toBe('1h 0m 0s');
    expect(formatDuration(3605)).toBe('1h 0m 5s');
    expect(formatDuration(3723)).toBe('1h 2m 3s');
    expect(formatDuration(90061)).toBe('25h 1m 1s');
  });

  it('treats invalid input as zero', () => {
    for (const v of [-5, NaN, Infinity]) expect(formatDuration(v), String(v)).toBe('0s');
  });
});

describe('maskEmail', () => {
  it('keeps three chars of longer local parts', () => {
    expect(maskEmail('johnsmith@x.com')).toBe('joh******@x.com');
    expect(maskEmail('abcd@x.com')).toBe('abc*@x.com');
  });

  it('keeps floor(len/2) chars of short local parts', () => {
    expect(maskEmail('abc@x.com')).toBe('a**@x.com');
    expect(maskEmail('ab@x.com')).toBe('a*@x.com');
    expect(maskEmail('a@x.com')).toBe('*@x.com');
    expect(maskEmail('@x.com')).toBe('@x.com');
  });

  it('preserves the length of the local part and the whole domain', () => {
    const masked = maskEmail('someone.else@sub.example.org');
    expect(masked).toBe('som*********@sub.example.org');
    expect(masked.length).toBe('someone.else@sub.example.org'.length);
  });

  it('masks up to the last @ and never splits characters', () => {
    expect(maskEmail('"a@b"@x.com')).toBe('"a@**@x.com');
    expect(maskEmail('😀😀😀😀@x.com')).toBe('😀😀😀*@x.com');
  });

  it('returns input without @ unchanged', () => {
    expect(maskEmail('')).toBe('');
    expect(maskEmail('not-an-email')).toBe('not-an-email');
  });
});

describe('formatName', () => {
  it('lower-cases then capitalises the first letter', () => {
    expect(formatName('jOHN')).toBe('John');
    expect(formatName('JOHN')).toBe('John');
    expect(formatName('john')).toBe('John');
    expect(formatName('j')).toBe('J');
    expect(formatName('mARY ANN')).toBe('Mary ann');
    expect(formatName('élodie')).toBe('Élodie');
  });

  it('handles empty and non-letter starts', () => {
    expect(formatName('')).toBe('');
    expect(formatName('1ABC')).toBe('1abc');
  });
});
