import { describe, expect, it } from 'vitest';
import { firstInputProblem, MAX_INPUT_DEPTH, hasControlChars, stripControlChars, textField } from './text';

describe('control characters in text', () => {
  it('finds NUL, C0/C1 controls and lone surrogates; lines only where allowed', () => {
    for (const bad of ['a\u0000', '\u0007', 'x\u001b[31m', '\u007f', '\u0085', 'x\ud800', '\udc00y']) {
      expect(hasControlChars(bad), JSON.stringify(bad)).toBe(true);
    }
    expect(hasControlChars('two\nlines')).toBe(true);
    expect(hasControlChars('two\nlines\tand\r\n', { multiline: true })).toBe(false);
    expect(hasControlChars('日本語 😀 café')).toBe(false);
  });
  it('strips them from parsed text', () => {
    expect(stripControlChars('he\u0000llo\u0001\n', { multiline: true })).toBe('hello\n');
    expect(stripControlChars('a\nb\ud800')).toBe('ab');
  });
  it('the shared field refuses, trims and limits', () => {
    const name = textField({ min: 1, max: 5 });
    expect(name.safeParse('  ok ').data).toBe('ok');
    expect(name.safeParse('a\u0000').error?.issues[0]?.message).toBe('validation.controlChars');
    expect(name.safeParse('   ').error?.issues[0]?.message).toBe('validation.required');
    expect(name.safeParse('toolong').error?.issues[0]?.message).toBe('validation.tooLong');
    expect(textField({ max: 20, multiline: true }).safeParse('a\nb').data).toBe('a\nb');
  });
  it('names the first bad field of a body, skipping files', () => {
    expect(firstInputProblem({ a: 'ok', b: [{ c: 'x\u0000' }] })?.path).toBe('b.0.c');
    expect(firstInputProblem({ a: 'ok', b: ['y', 'x\u0001'], c: 'z\u0002' })?.path).toBe('b.1');
    expect(firstInputProblem({ a: 'line\nbreak', n: 3 })).toBeNull();
    expect(firstInputProblem('\u0000')).toEqual({ path: '_', message: 'validation.controlChars' });
  });
  it('walks any depth without recursion, and names a body nested past the limit', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(firstInputProblem(deep)).toEqual({ path: '0.0.0', message: 'validation.tooDeep' });
    let fine: unknown = 'x';
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) fine = { a: fine };
    expect(firstInputProblem(fine)).toBeNull();
  });
});
