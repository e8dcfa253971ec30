import { describe, expect, it } from 'vitest';
import { createTurns } from './turns';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('turns on a one-at-a-time model', () => {
  it('gives the next turn to an interactive waiter queued after batch ones', async () => {
    const turns = createTurns();
    const order: string[] = [];
    const endFirst = await turns.take();
    const waiting = [
      turns.take().then((end) => (order.push('batch 1'), end)),
      turns.take().then((end) => (order.push('batch 2'), end)),
      turns.take({ interactive: true }).then((end) => (order.push('question'), end)),
    ];
    await tick();
    expect(order).toEqual([]); // the running completion keeps its turn
    endFirst();
    for (const w of [waiting[2]!, waiting[0]!, waiting[1]!]) (await w)();
    expect(order).toEqual(['question', 'batch 1', 'batch 2']);
  });

  it('keeps the order among waiters of one kind', async () => {
    const turns = createTurns();
    const order: number[] = [];
    const end = await turns.take();
    const all = [1, 2, 3].map((n) => turns.take().then((e) => (order.push(n), e())));
    end();
    await Promise.all(all);
    expect(order).toEqual([1, 2, 3]);
  });

  it('lets a canceled waiter leave the line without taking a turn', async () => {
    const turns = createTurns();
    const end = await turns.take();
    const controller = new AbortController();
    const canceled = turns.take({ interactive: true, signal: controller.signal });
    const batch = turns.take();
    controller.abort(new Error('canceled'));
    await expect(canceled).rejects.toThrow('canceled');
    end();
    const endBatch = await batch;
    endBatch();
    endBatch(); // ending twice gives nothing away
    const again = await turns.take();
    again();
  });
});
