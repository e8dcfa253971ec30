// Markdown written by a language model that cites a transcript (templates, decision 0037): the
// model cites segment numbers `[12]` (or `[3, 7]`); they become `[12:34]` clocks when the segment
// exists, and disappear when it does not (an invented citation is never shown). The page renders
// the result from the small, closed set of blocks below, as text: no HTML, no links, no images.
import { chapterClock, type Citation } from './insights';

/** `[12]`, `[3, 7]`, `[segment 12]`, or a clock `[12:34]` / `[1:02:03]`. */
const CITE = /\[\s*(?:segments?\s*)?(\d+(?:\s*[,;]\s*\d+)*|\d{1,2}:\d{2}(?::\d{2})?)\s*\]/gi;

const clockSeconds = (clock: string) => clock.split(':').reduce((acc, p) => acc * 60 + Number(p), 0);

export interface CitedMarkdown {
  markdown: string;
  cites: Citation[];
}

/**
 * The model's text with its citations checked: segment numbers in `allowed` (and clocks that are
 * one of those segments' starts) become `[mm:ss]`; others are dropped. `starts[n]` is segment
 * n's start in seconds.
 */
export function citeSegments(
  text: string,
  starts: readonly number[],
  allowed: (n: number) => boolean = (n) => n >= 0 && n < starts.length,
): CitedMarkdown {
  const byClock = new Map<string, number>();
  starts.forEach((s, n) => {
    const clock = chapterClock(s);
    if (allowed(n) && !byClock.has(clock)) byClock.set(clock, n);
  });
  const cites = new Map<number, Citation>();
  const markdown = text.replace(CITE, (_m, inner: string) => {
    const numbers = inner.includes(':')
      ? [byClock.get(chapterClock(clockSeconds(inner)))].filter((n): n is number => n !== undefined)
      : inner
          .split(/[,;]/)
          .map((x) => Number(x.trim()))
          .filter((n) => Number.isInteger(n) && n < starts.length && allowed(n));
    const clocks = [...new Set(numbers)].map((n) => {
      cites.set(n, { segment: n, start: starts[n]! });
      return `[${chapterClock(starts[n]!)}]`;
    });
    return clocks.join(' ');
  });
  return {
    markdown: markdown
      .replace(/[ \t]+([.,;:!?。、])/g, '$1')
      .replace(/[ \t]{2,}/g, ' ')
      .replace(/[ \t]+$/gm, ''),
    cites: [...cites.values()].sort((a, b) => a.start - b.start),
  };
}

/** Segment numbers a text cites (`[12]`, `[3, 7]`): what a merge of notes may keep. */
export function citedNumbers(text: string): number[] {
  const out = new Set<number>();
  for (const m of text.matchAll(CITE)) {
    if (m[1]!.includes(':')) continue;
    for (const x of m[1]!.split(/[,;]/)) out.add(Number(x.trim()));
  }
  return [...out];
}

/** Text with numeric citations taken out (a preview while the model still writes). */
export const withoutNumberCites = (text: string) =>
  text.replace(/\[\s*(?:segments?\s*)?\d+(?:\s*[,;]\s*\d+)*\s*\]/gi, '');

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'strong'; v: Inline[] }
  | { t: 'em'; v: Inline[] }
  | { t: 'code'; v: string }
  | { t: 'cite'; clock: string; seconds: number };

export type Block =
  | { t: 'heading'; level: 1 | 2 | 3; v: Inline[] }
  | { t: 'list'; ordered: boolean; items: Inline[][] }
  | { t: 'quote'; v: Inline[] }
  | { t: 'paragraph'; v: Inline[] }
  | { t: 'rule' };

/** Inline Markdown: **strong**, *em* / _em_, `code`, [12:34] citations; links keep their text only. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const re =
    /\*\*(.+?)\*\*|__(.+?)__|(?<![\w*])\*(?!\s)(.+?)\*(?!\w)|(?<!\w)_(?!\s)(.+?)_(?!\w)|`([^`]+)`|\[(\d{1,2}:\d{2}(?::\d{2})?)\]|!?\[([^\]]*)\]\((?:[^()]|\([^()]*\))*\)/g;
  let last = 0;
  for (const m of text.matchAll(re)) {
    if (m.index! > last) out.push({ t: 'text', v: text.slice(last, m.index) });
    if (m[1] !== undefined || m[2] !== undefined) out.push({ t: 'strong', v: parseInline(m[1] ?? m[2]!) });
    else if (m[3] !== undefined || m[4] !== undefined) out.push({ t: 'em', v: parseInline(m[3] ?? m[4]!) });
    else if (m[5] !== undefined) out.push({ t: 'code', v: m[5] });
    else if (m[6] !== undefined) out.push({ t: 'cite', clock: m[6], seconds: clockSeconds(m[6]) });
    else out.push({ t: 'text', v: m[7] ?? '' });
    last = m.index! + m[0].length;
  }
  if (last < text.length) out.push({ t: 'text', v: text.slice(last) });
  return out;
}

/** Block Markdown: headings, bullet and numbered lists, quotes, rules, paragraphs. */
export function parseMarkdown(markdown: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  const flush = () => {
    if (paragraph.length) blocks.push({ t: 'paragraph', v: parseInline(paragraph.join(' ')) });
    if (list) blocks.push({ t: 'list', ordered: list.ordered, items: list.items.map((i) => parseInline(i)) });
    paragraph = [];
    list = null;
  };
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('```')) {
      flush();
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*$/.exec(line);
    if (heading) {
      flush();
      const level = Math.min(3, heading[1]!.length) as 1 | 2 | 3;
      blocks.push({ t: 'heading', level, v: parseInline(heading[2]!) });
      continue;
    }
    if (/^([-*_])(\s*\1){2,}$/.test(line)) {
      flush();
      blocks.push({ t: 'rule' });
      continue;
    }
    const bullet = /^[-*+•]\s+(.*)$/.exec(line);
    const numbered = /^\d{1,3}[.)]\s+(.*)$/.exec(line);
    if (bullet || numbered) {
      const ordered = !!numbered;
      if (paragraph.length || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push((bullet ?? numbered)![1]!);
      continue;
    }
    const quote = /^>\s?(.*)$/.exec(line);
    if (quote) {
      flush();
      blocks.push({ t: 'quote', v: parseInline(quote[1]!) });
      continue;
    }
    if (list) {
      // A continuation line of the last item.
      const items: string[] = (list as { items: string[] }).items;
      items[items.length - 1] += ` ${line}`;
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return blocks;
}
