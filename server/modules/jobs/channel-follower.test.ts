import { describe, expect, it } from 'vitest';
import { createLocalEvents, type TranscriptEvent } from './events';
import { followChannel } from './channel-follower';

const isCancel = (e: TranscriptEvent): e is Extract<TranscriptEvent, { type: 'cancel' }> => e.type === 'cancel';

describe('followChannel', () => {
  it('keeps what arrives before the first look, in order, and only what the filter keeps', async () => {
    const events = createLocalEvents();
    const follower = followChannel(events, 'c', isCancel, new AbortController().signal);
    events.publish('c', { type: 'cancel' });
    events.publish('c', { type: 'resend' });
    events.publish('other', { type: 'cancel' });
    events.publish('c', { type: 'cancel' });
    expect(await follower.next(1_000)).toEqual([{ type: 'cancel' }, { type: 'cancel' }]);
    follower.close();
  });

  it('wakes for an event, answers [] after a quiet spell, and null once aborted', async () => {
    const events = createLocalEvents();
    const abort = new AbortController();
    const follower = followChannel(events, 'c', isCancel, abort.signal);
    setTimeout(() => events.publish('c', { type: 'cancel' }), 10);
    expect(await follower.next(60_000)).toEqual([{ type: 'cancel' }]);
    expect(await follower.next(5)).toEqual([]);
    setTimeout(() => abort.abort(), 10);
    expect(await follower.next(60_000)).toBeNull();
    follower.close();
    events.publish('c', { type: 'cancel' });
    expect(await follower.next(1)).toBeNull();
  });
});
