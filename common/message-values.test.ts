import { describe, expect, it } from 'vitest';
import { messageValues } from './message-values';

describe('messageValues', () => {
  it('adds a size limit written by the one size formatter beside the raw number', () => {
    expect(messageValues('en', { limit_mb: 1024 })).toEqual({ limit_mb: 1024, limit_size: '1 GB' });
    expect(messageValues('en', { limit_mb: 200 }).limit_size).toBe('200 MB');
    expect(messageValues('de', { limit_mb: 10_240 }).limit_size).toBe('10\u00a0GB');
    expect(messageValues('en', { max_mb: 5 })).toEqual({ max_mb: 5, max_size: '5 MB' });
  });

  it('passes other data through and ignores what is not an object', () => {
    expect(messageValues('en', { format: 'DOCX' })).toEqual({ format: 'DOCX' });
    expect(messageValues('en', null)).toEqual({});
    expect(messageValues('en', ['x'])).toEqual({});
    expect(messageValues('en', { limit_mb: 'lots' })).toEqual({ limit_mb: 'lots' });
  });
});
