import { describe, expect, it } from 'vitest';
import {
  localDate,
  localDuration,
  localFileSize,
  localFileSizeMb,
  localMinutes,
  localMoney,
  localNumber,
} from './locale-format';

const JAN5 = Date.UTC(2024, 0, 5, 23, 30) / 1000;

describe('formatting in the page language', () => {
  it('keeps the fixed English formats', () => {
    expect(localDate('en', JAN5)).toBe('Jan 05 2024');
    expect(localDuration('en', 221)).toBe('3m 41s');
    expect(localDate('en', Number.NaN)).toBe('--');
  });

  it('uses each language’s own dates and durations (in UTC)', () => {
    expect(localDate('de', JAN5)).toBe('05.01.2024');
    expect(localDate('ja', JAN5)).toBe('2024/01/05');
    expect(localDate('zh', JAN5)).toBe('2024年1月5日');
    expect(localDate('de', 'x')).toBe('--');
    expect(localDuration('de', 221)).toBe('3 Min. 41 Sek.');
    expect(localDuration('ja', 3661)).toBe('1 時間 1 分 1 秒');
    expect(localDuration('zh', 41)).toBe('41秒');
  });

  it('formats numbers, minutes and money with the language’s separators', () => {
    expect(localNumber('de', 2400)).toBe('2.400');
    expect(localNumber('en', 2400)).toBe('2,400');
    expect(localMinutes('en', 4.61)).toBe('4.6');
    expect(localMinutes('de', 4.61)).toBe('4,6');
    expect(localMinutes('en', 4)).toBe('4');
    expect(localMoney('en', 1200, 'usd')).toBe('$12.00');
    expect(localMoney('de', 1200, 'EUR')).toBe('12,00\u00a0€');
    expect(localMoney('ja', 1200, 'JPY')).toBe('￥1,200');
  });

  it('says a file size one way everywhere: 1024 MB is 1 GB, in the language’s units', () => {
    expect(localFileSizeMb('en', 1024)).toBe('1 GB');
    expect(localFileSizeMb('en', 200)).toBe('200 MB');
    expect(localFileSizeMb('en', 5120)).toBe('5 GB');
    expect(localFileSizeMb('en', 1536)).toBe('1.5 GB');
    expect(localFileSizeMb('de', 1536)).toBe('1,5\u00a0GB');
    expect(localFileSizeMb('fr', 1024)).toBe('1\u202fGo');
    expect(localFileSize('en', 3.44 * 1024 * 1024)).toBe('3.4 MB');
    expect(localFileSize('en', 250 * 1024 * 1024)).toBe('250 MB');
  });
});
