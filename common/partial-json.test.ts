import { describe, expect, it } from 'vitest';
import { partialStrings } from './partial-json';

describe('partial JSON', () => {
  it('reads the string values written so far, the last one unfinished', () => {
    expect(
      partialStrings('{"bottomLine":{"text":"We ship \\"soon\\"","segments":[1]},"keyPoints":[{"text":"Bud'),
    ).toEqual([
      { key: 'text', value: 'We ship "soon"' },
      { key: 'text', value: 'Bud' },
    ]);
  });

  it('keeps each value with its key and decodes escapes', () => {
    expect(partialStrings('{"chapters":[{"segment":0,"title":"Intro \\u00e9","summary":"a\\nb"}]}')).toEqual([
      { key: 'title', value: 'Intro é' },
      { key: 'summary', value: 'a\nb' },
    ]);
    expect(partialStrings('{"owner":null,"x":"\\')).toEqual([{ key: 'x', value: '' }]);
    expect(partialStrings('')).toEqual([]);
  });
});
