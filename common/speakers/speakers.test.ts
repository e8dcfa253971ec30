import { describe, expect, it } from 'vitest';
import {
  mergeSegments,
  normalizeSegments,
  shiftSegments,
  splitSegment,
  validateSegmentsInput,
  type Segment,
} from '../segments';
import {
  MAX_SPEAKER_NAME,
  SPEAKER_COLORS,
  assignByOverlap,
  assignSpeaker,
  cleanSpeakerName,
  defaultSpeakerName,
  mergeSpeakers,
  newSpeaker,
  normalizeSpeakers,
  speakerRuns,
  speakersFromLabels,
  withKnownSpeakers,
  type Speaker,
} from '.';

const ALICE: Speaker = { id: 's1', name: 'Alice', color: '#2563eb' };
const BOB: Speaker = { id: 's2', name: 'Bob', color: '#dc2626' };

describe('default names and new speakers', () => {
  it('translates the default name in every locale, English otherwise', () => {
    expect(defaultSpeakerName('en', 1)).toBe('Speaker 1');
    expect(defaultSpeakerName('de', 2)).toBe('Sprecher 2');
    expect(defaultSpeakerName('ja', 3)).toBe('話者3');
    expect(defaultSpeakerName('zh', 4)).toBe('说话人 4');
    expect(defaultSpeakerName('xx', 5)).toBe('Speaker 5');
  });

  it('gives the next id, a free default name and the next colour', () => {
    const third = newSpeaker([ALICE, { ...BOB, id: 's7', name: 'Speaker 3' }], 'en');
    expect(third).toEqual({ id: 's8', name: 'Speaker 4', color: SPEAKER_COLORS[2] });
    expect(newSpeaker([], 'fr', '  Marie\n Curie ')).toEqual({
      id: 's1',
      name: 'Marie Curie',
      color: SPEAKER_COLORS[0],
    });
  });

  it('cleans names: one line, control characters gone, at most MAX_SPEAKER_NAME', () => {
    expect(cleanSpeakerName(' A\u0000b\tc ')).toBe('A b c');
    const long = cleanSpeakerName(`${'x'.repeat(MAX_SPEAKER_NAME - 1)}😀`);
    expect(long).toBe('x'.repeat(MAX_SPEAKER_NAME - 1));
  });

  it('normalizes a stored list: bad and repeated ids dropped, blank names defaulted, colours checked', () => {
    expect(
      normalizeSpeakers(
        [
          ALICE,
          { id: 's1', name: 'Again', color: '#000000' },
          { id: 'bad id', name: 'X' },
          { id: 's3', name: ' ', color: 'red' },
          null,
        ],
        'es',
      ),
    ).toEqual([ALICE, { id: 's3', name: 'Hablante 2', color: SPEAKER_COLORS[1] }]);
  });
});

describe('segments carry speakers through the editing rules', () => {
  const seg: Segment = {
    start: 0,
    end: 4,
    text: 'Hello there friend',
    speaker: 's1',
    words: [
      { start: 0, end: 1, text: 'Hello' },
      { start: 1, end: 2, text: 'there' },
      { start: 2.5, end: 4, text: 'friend', speaker: 's2' },
    ],
  };

  it('normalizeSegments keeps well-formed speaker ids on segments and words only', () => {
    const [out] = normalizeSegments([seg, { start: 5, end: 6, text: 'x', speaker: 'no way' }]);
    expect(out).toEqual(seg);
    expect(normalizeSegments([{ start: 5, end: 6, text: 'x', speaker: 'no way' }])[0]).toEqual({
      start: 5,
      end: 6,
      text: 'x',
    });
  });

  it('split, merge and shift keep who said what', () => {
    const [a, b] = splitSegment([seg], 0, 11);
    expect(a!.speaker).toBe('s1');
    expect(b!.speaker).toBe('s1');
    expect(b!.words!.at(-1)!.speaker).toBe('s2');
    const merged = mergeSegments(
      [
        { start: 0, end: 1, text: 'Hi', speaker: 's1', words: [{ start: 0, end: 1, text: 'Hi' }] },
        { start: 1, end: 2, text: 'Yo', speaker: 's2', words: [{ start: 1, end: 2, text: 'Yo' }] },
      ],
      0,
    );
    expect(merged).toEqual([
      {
        start: 0,
        end: 2,
        text: 'Hi Yo',
        speaker: 's1',
        words: [
          { start: 0, end: 1, text: 'Hi' },
          { start: 1, end: 2, text: 'Yo', speaker: 's2' },
        ],
      },
    ]);
    expect(shiftSegments([seg], 1)[0]!.speaker).toBe('s1');
    expect(shiftSegments([seg], 1)[0]!.words![2]!.speaker).toBe('s2');
  });

  it('the update API accepts speaker ids and refuses malformed ones', () => {
    expect(validateSegmentsInput([{ start: 0, end: 1, text: 'a', speaker: 's1' }])).toEqual({
      ok: true,
      segments: [{ start: 0, end: 1, text: 'a', speaker: 's1' }],
    });
    expect(validateSegmentsInput([{ start: 0, end: 1, text: 'a', speaker: '<b>' }])).toEqual({
      ok: false,
      error: 'segments[0].speaker must be a speaker id',
    });
  });
});

describe('speaker edits', () => {
  const segs: Segment[] = [
    { start: 0, end: 1, text: 'a', speaker: 's1' },
    { start: 1, end: 2, text: 'b', speaker: 's2', words: [{ start: 1, end: 2, text: 'b', speaker: 's1' }] },
    { start: 2, end: 3, text: 'c' },
  ];

  it('assigns a speaker to a selection (words follow), or nobody', () => {
    expect(assignSpeaker(segs, [1, 2], 's1')).toEqual([
      segs[0],
      { start: 1, end: 2, text: 'b', speaker: 's1', words: [{ start: 1, end: 2, text: 'b' }] },
      { start: 2, end: 3, text: 'c', speaker: 's1' },
    ]);
    expect(assignSpeaker(segs, [0], null)[0]).toEqual({ start: 0, end: 1, text: 'a' });
    expect(() => assignSpeaker(segs, [3], 's1')).toThrow(RangeError);
  });

  it('merges one speaker into another everywhere and drops it from the list', () => {
    const out = mergeSpeakers(segs, [ALICE, BOB], 's1', 's2');
    expect(out.speakers).toEqual([BOB]);
    expect(out.segments[0]!.speaker).toBe('s2');
    expect(out.segments[1]!.words![0]!.speaker).toBe('s2');
    expect(() => mergeSpeakers(segs, [ALICE, BOB], 's1', 's1')).toThrow(RangeError);
    expect(() => mergeSpeakers(segs, [ALICE], 's1', 's2')).toThrow(RangeError);
  });

  it('drops references to speakers not in the list', () => {
    expect(withKnownSpeakers(segs, [BOB])).toEqual([
      { start: 0, end: 1, text: 'a' },
      { start: 1, end: 2, text: 'b', speaker: 's2', words: [{ start: 1, end: 2, text: 'b' }] },
      segs[2],
    ]);
  });
});

describe('speakerRuns', () => {
  it('cuts a segment where its words change speaker', () => {
    const seg: Segment = {
      start: 0,
      end: 6,
      text: 'Are you there? Yes I am.',
      speaker: 's1',
      words: [
        { start: 0, end: 0.5, text: 'Are' },
        { start: 0.5, end: 1, text: 'you' },
        { start: 1, end: 2, text: 'there?' },
        { start: 3, end: 3.5, text: 'Yes', speaker: 's2' },
        { start: 3.5, end: 4, text: 'I', speaker: 's2' },
        { start: 4, end: 5, text: 'am.', speaker: 's2' },
      ],
    };
    expect(speakerRuns(seg)).toEqual([
      {
        start: 0,
        end: 3,
        text: 'Are you there?',
        speaker: 's1',
        words: [
          { start: 0, end: 0.5, text: 'Are' },
          { start: 0.5, end: 1, text: 'you' },
          { start: 1, end: 2, text: 'there?' },
        ],
      },
      {
        start: 3,
        end: 6,
        text: 'Yes I am.',
        speaker: 's2',
        words: [
          { start: 3, end: 3.5, text: 'Yes' },
          { start: 3.5, end: 4, text: 'I' },
          { start: 4, end: 5, text: 'am.' },
        ],
      },
    ]);
  });

  it('keeps a one-speaker segment whole', () => {
    const seg: Segment = {
      start: 0,
      end: 1,
      text: 'Hi',
      speaker: 's1',
      words: [{ start: 0, end: 1, text: 'Hi', speaker: 's1' }],
    };
    expect(speakerRuns(seg)).toEqual([seg]);
  });
});

describe('speakersFromLabels', () => {
  it('names generic labels by default and keeps real names, in order of appearance', () => {
    const out = speakersFromLabels(
      [
        { start: 0, end: 1, text: 'a', speaker: 'B' },
        { start: 1, end: 2, text: 'b', speaker: 'Alice' },
        { start: 2, end: 3, text: 'c', speaker: 'B' },
        { start: 3, end: 4, text: 'd', speaker: 'SPEAKER_07' },
        { start: 4, end: 5, text: 'e' },
      ],
      'de',
    );
    expect(out.speakers).toEqual([
      { id: 's1', name: 'Sprecher 1', color: SPEAKER_COLORS[0] },
      { id: 's2', name: 'Alice', color: SPEAKER_COLORS[1] },
      { id: 's3', name: 'Sprecher 3', color: SPEAKER_COLORS[2] },
    ]);
    expect(out.segments.map((s) => s.speaker)).toEqual(['s1', 's2', 's1', 's3', undefined]);
  });
});

describe('assignByOverlap (synthetic diarizer output)', () => {
  const turns = [
    { start: 0, end: 4.2, speaker: 1 },
    { start: 4.2, end: 9, speaker: 0 },
    { start: 9.5, end: 12, speaker: 1 },
  ];

  it('gives each segment the speaker who overlaps it most, numbering clusters for naming', () => {
    const out = assignByOverlap(
      [
        { start: 0.2, end: 4, text: 'one' },
        { start: 3.9, end: 8, text: 'two' },
        { start: 12.5, end: 13, text: 'near the last turn' },
        { start: 30, end: 31, text: 'far from all' },
      ],
      turns,
    );
    expect(out.map((s) => s.speaker)).toEqual(['2', '1', '2', undefined]);
    const named = speakersFromLabels(out, 'en');
    expect(named.speakers.map((s) => s.name)).toEqual(['Speaker 1', 'Speaker 2']);
    expect(named.segments.map((s) => s.speaker)).toEqual(['s1', 's2', 's1', undefined]);
  });

  it('assigns words one by one and cuts segments where the speaker changes', () => {
    const out = assignByOverlap(
      [
        {
          start: 3,
          end: 6,
          text: 'so yes. Right',
          words: [
            { start: 3, end: 3.5, text: 'so' },
            { start: 3.5, end: 4.1, text: 'yes.' },
            { start: 4.5, end: 6, text: 'Right' },
          ],
        },
      ],
      turns,
    );
    expect(out).toEqual([
      {
        start: 3,
        end: 4.5,
        text: 'so yes.',
        speaker: '2',
        words: [
          { start: 3, end: 3.5, text: 'so' },
          { start: 3.5, end: 4.1, text: 'yes.' },
        ],
      },
      { start: 4.5, end: 6, text: 'Right', speaker: '1', words: [{ start: 4.5, end: 6, text: 'Right' }] },
    ]);
  });

  it('leaves segments alone when there are no turns', () => {
    expect(assignByOverlap([{ start: 0, end: 1, text: 'a', speaker: 'x' }], [])).toEqual([
      { start: 0, end: 1, text: 'a' },
    ]);
  });
});
