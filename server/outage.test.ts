import { describe, expect, it } from 'vitest';
import { outageOf } from './outage';

const withCause = (cause: unknown) => Object.assign(new Error('Failed query: update …'), { cause });

describe('outageOf', () => {
  it('tells a dependency away from a full disk and from a bug', () => {
    // node-postgres while PostgreSQL restarts, wrapped by Drizzle.
    expect(outageOf(withCause(Object.assign(new Error('terminating connection'), { code: '57P01' })))).toBe(
      'unavailable',
    );
    expect(outageOf(new Error('Connection terminated unexpectedly'))).toBe('unavailable');
    expect(outageOf(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(
      'unavailable',
    );
    expect(outageOf(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(
      'unavailable',
    );
    expect(outageOf({ name: 'ServiceUnavailable', $metadata: { httpStatusCode: 503 } })).toBe('unavailable');
    // PGlite and the file system on a full disk.
    expect(outageOf(withCause(Object.assign(new Error('could not extend file'), { code: '53100' })))).toBe(
      'out_of_space',
    );
    expect(
      outageOf(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })),
    ).toBe('out_of_space');
    // Bugs and refusals stay what they are.
    expect(outageOf(new TypeError('x is undefined'))).toBeNull();
    expect(outageOf(withCause(Object.assign(new Error('duplicate key'), { code: '23505' })))).toBeNull();
    expect(outageOf({ $metadata: { httpStatusCode: 404 } })).toBeNull();
  });
});
