import { describe, expect, it } from 'vitest';
import { firstChunkSec, keepUntilSeam, nextChunkSec, planChunk, seamCut, type RawPiece } from './chunk-plan';

const words = (...spec: [string, number, number][]): RawPiece[] =>
  spec.map(([text, start, end]) => ({ text, start: start * 100, end: end * 100 }));

describe('planChunk', () => {
  it('takes the wanted length, and the whole rest when only a short tail would be left', () => {
    expect(planChunk({ pos: 0, chunkSec: 20, speechSec: 100, allKnown: true, seams: [] })).toEqual({
      end: 20,
      clean: false,
    });
    // 4 s would be left after 20: less than a quarter of a chunk, so it joins this one.
    expect(planChunk({ pos: 0, chunkSec: 20, speechSec: 24, allKnown: true, seams: [] })).toEqual({
      end: 24,
      clean: true,
    });
  });

  it('keeps a short tail while the detector may still find more speech', () => {
    expect(planChunk({ pos: 0, chunkSec: 20, speechSec: 24, allKnown: false, seams: [] })).toEqual({
      end: 20,
      clean: false,
    });
  });

  it('ends at the last seam in the second half of the chunk, never at one in the first half', () => {
    expect(
      planChunk({ pos: 10, chunkSec: 30, speechSec: 100, allKnown: true, seams: [12, 22, 31, 37, 45] }),
    ).toEqual({
      end: 37,
      clean: true,
    });
    expect(planChunk({ pos: 10, chunkSec: 30, speechSec: 100, allKnown: true, seams: [12, 20] })).toEqual({
      end: 40,
      clean: false,
    });
  });
});

describe('chunk lengths', () => {
  it('starts short, then sizes chunks from the measured speed within the bounds', () => {
    expect(firstChunkSec(undefined, 600)).toBe(20);
    expect(firstChunkSec(45, 30)).toBe(30);
    expect(nextChunkSec(10, 30, 600)).toBe(300);
    expect(nextChunkSec(100, 30, 600)).toBe(600);
    expect(nextChunkSec(0.2, 30, 600)).toBe(30);
    expect(nextChunkSec(0.2, 30, 20)).toBe(20);
    // Never more than twice the previous chunk, however fast the last one went.
    expect(nextChunkSec(100, 30, 600, 20)).toBe(40);
    expect(nextChunkSec(100, 30, 600, 400)).toBe(600);
    expect(nextChunkSec(0.2, 30, 600, 10)).toBe(30);
  });
});

describe('seamCut and keepUntilSeam', () => {
  const spoken = words(
    [' One', 0, 0.4],
    [' two.', 0.5, 1],
    [' Three', 6, 6.4],
    [' four', 6.5, 7],
    [' five.', 7.1, 7.5],
    [' Six', 8, 8.5],
    [' sev', 9.6, 10],
  );

  it('cuts before the last sentence or pause in the second half', () => {
    // ' sev' follows a 1.1 s pause: the cut is before it.
    expect(seamCut(spoken, 10)).toBe(9.6);
    // Without the pause, before ' Six' (after a sentence end).
    const noPause = spoken.map((w) => (w.text === ' sev' ? { ...w, start: 860 } : w));
    expect(seamCut(noPause, 10)).toBe(8);
    // Nothing in the second half: no cut.
    expect(seamCut(words([' a', 0, 1], [' b', 1, 2]), 10)).toBeNull();
  });

  it('keeps everything of a clean chunk, and drops the unfinished tail of a cut one', () => {
    expect(keepUntilSeam(spoken, { clean: true, lengthSec: 10, wordMode: true })).toEqual({
      pieces: spoken,
      advanceSec: 10,
    });
    const cut = keepUntilSeam(spoken, { clean: false, lengthSec: 10, wordMode: true });
    expect(cut.advanceSec).toBe(9.6);
    expect(cut.pieces.map((w) => w.text)).toEqual([' One', ' two.', ' Three', ' four', ' five.', ' Six']);
    // Segment mode: the last segment is decoded again.
    const seg = keepUntilSeam(words([' A b.', 0, 4], [' C d', 7, 10]), {
      clean: false,
      lengthSec: 10,
      wordMode: false,
    });
    expect(seg).toEqual({ pieces: words([' A b.', 0, 4]), advanceSec: 7 });
  });
});
