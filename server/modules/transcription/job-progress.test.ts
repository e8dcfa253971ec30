import { describe, expect, it } from 'vitest';
import { jobPercent } from './job-progress';

describe('jobPercent', () => {
  it('places each part on the bar in order, never reaching 100 before done', () => {
    expect(jobPercent('preparing', 0)).toBe(0);
    expect(jobPercent('preparing', 100)).toBe(2);
    expect(jobPercent('engine', 0)).toBe(2);
    expect(jobPercent('engine', 50)).toBe(50);
    expect(jobPercent('engine', 100)).toBe(98);
    expect(jobPercent('saving', 0)).toBe(98);
    expect(jobPercent('saving', 100)).toBe(99);
    expect(jobPercent('engine', Number.NaN)).toBe(2);
    expect(jobPercent('engine', 250)).toBe(98);
  });
});
