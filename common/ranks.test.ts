import { describe, expect, it } from 'vitest';
import {
  cheapestRankWith,
  isCustomizedRank,
  limitsFor,
  lockedFormats,
  RANK_LIMITS,
  standardRank,
} from './ranks';

describe('ranks', () => {
  it('recognises the six ranks case-insensitively', () => {
    expect(standardRank('starter')).toBe('STARTER');
    expect(standardRank('enterprise')).toBe('Enterprise');
    expect(isCustomizedRank('FREE')).toBe(false);
    expect(isCustomizedRank('Acme Corp Plan')).toBe(true);
    expect(isCustomizedRank('')).toBe(true);
  });
  it('grows limits with the rank and lets Free make a real first transcript', () => {
    expect(RANK_LIMITS.Free.minutes_per_month).toBeGreaterThanOrEqual(10);
    expect(RANK_LIMITS.Free.max_duration_minutes).toBeGreaterThanOrEqual(10);
    expect(RANK_LIMITS.STARTER.minutes_per_month!).toBeGreaterThan(RANK_LIMITS.Free.minutes_per_month!);
    expect(RANK_LIMITS.ADVANCED.max_file_mb).toBeGreaterThan(RANK_LIMITS.BASIC.max_file_mb);
  });
  it('applies per-account limits only to Enterprise and customised ranks', () => {
    expect(limitsFor('Free', { minutes_per_month: 9999 }).minutes_per_month).toBe(30);
    expect(limitsFor('Enterprise', { minutes_per_month: 9999 }).minutes_per_month).toBe(9999);
    expect(limitsFor('Acme', { concurrent_jobs: 20 }).concurrent_jobs).toBe(20);
    expect(limitsFor('Acme', null)).toEqual(RANK_LIMITS.Enterprise);
  });
});

describe('the plan that unlocks an export format', () => {
  const table = structuredClone(RANK_LIMITS);
  it('is the cheapest rank whose limits include it', () => {
    expect(cheapestRankWith('docx')).toBe('STARTER');
    expect(cheapestRankWith('txt')).toBe('Free');
    expect(lockedFormats('Free', RANK_LIMITS.Free.export_formats)).toEqual([
      { format: 'vtt', rank: 'STARTER' },
      { format: 'docx', rank: 'STARTER' },
      { format: 'json', rank: 'STARTER' },
    ]);
    expect(lockedFormats('STARTER', RANK_LIMITS.STARTER.export_formats)).toEqual([]);
  });
  it('follows the limits table, never a fixed name', () => {
    table.STARTER.export_formats = ['txt', 'srt', 'vtt'];
    table.BASIC.export_formats = ['txt', 'srt', 'vtt', 'json'];
    expect(cheapestRankWith('docx', 'Free', table)).toBe('ADVANCED');
    expect(lockedFormats('free', ['txt', 'srt'], table)).toEqual([
      { format: 'vtt', rank: 'STARTER' },
      { format: 'docx', rank: 'ADVANCED' },
      { format: 'json', rank: 'BASIC' },
    ]);
  });
  it('names only plans above the account’s own, and hides formats no plan sells', () => {
    table.STARTER.export_formats = ['txt', 'srt', 'docx'];
    table.BASIC.export_formats = ['txt', 'srt'];
    expect(lockedFormats('BASIC', ['txt', 'srt'], table)).toContainEqual({
      format: 'docx',
      rank: 'ADVANCED',
    });
    for (const r of ['ADVANCED', 'UNLIMITED', 'Enterprise'] as const) table[r].export_formats = ['txt'];
    expect(lockedFormats('Free', ['txt', 'srt'], table).map((l) => l.format)).toEqual(['docx']);
  });
  it('names no standard plan for Enterprise or customised accounts', () => {
    expect(lockedFormats('Enterprise', ['txt'])).toEqual([
      { format: 'srt', rank: null },
      { format: 'vtt', rank: null },
      { format: 'docx', rank: null },
      { format: 'json', rank: null },
    ]);
    expect(lockedFormats('Acme Corp', ['txt', 'srt', 'vtt', 'json'])).toEqual([
      { format: 'docx', rank: null },
    ]);
  });
});
