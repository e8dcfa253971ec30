import { describe, expect, it } from 'vitest';
import { isCustomizedRank, limitsFor, RANK_LIMITS, standardRank } from './ranks';

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
