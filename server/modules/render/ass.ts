import { PRESET_DEFAULTS, type RenderStyle } from '../../../common/render-options';
import { subtitleCues, type Cue } from '../../../common/cues';
import type { Segment } from '../../../common/segments';
import type { Speaker } from '../../../common/speakers';
import { fontName, type FontScript } from './fonts';
import type { Frame } from './geometry';

// The Advanced SubStation (ASS) file a render burns in, written by us from the transcript: text
// is escaped so it can never be read as an override tag, every font is one of ours (by PostScript
// name, per script run), sizes are in output pixels (PlayRes = the output frame), and karaoke
// highlights each word from its stored timing with \k tags.

export interface AssInput {
  segments: readonly Segment[];
  speakers: readonly Speaker[];
  /** The captions' language (the track's), for CJK line lengths and the Han face. */
  language: string | null;
  style: RenderStyle;
  frame: Frame;
  /** Seconds of the media the output starts at (a clip), and its length. */
  offset: number;
  duration: number;
  /** "Made with …" drawn small in a corner (Free plan), or null. */
  watermark: string | null;
}

export interface AssDocument {
  text: string;
  /** The scripts the captions use: the faces the render must provide. */
  scripts: Set<FontScript>;
}

const HAN = /\p{Script=Han}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const ARABIC = /\p{Script=Arabic}/u;
const THAI = /\p{Script=Thai}/u;
const DEVANAGARI = /\p{Script=Devanagari}/u;
const LETTER = /[\p{L}]/u;

function scriptOf(ch: string, hanScript: FontScript): FontScript | null {
  if (KANA.test(ch)) return 'ja';
  if (HAN.test(ch)) return hanScript;
  if (HANGUL.test(ch)) return 'ko';
  if (ARABIC.test(ch)) return 'arabic';
  if (THAI.test(ch)) return 'thai';
  if (DEVANAGARI.test(ch)) return 'devanagari';
  // Letters of other scripts are drawn in the Latin face (Latin, Greek, Cyrillic); marks,
  // digits, punctuation and spaces belong to the run around them.
  return LETTER.test(ch) ? 'latin' : null;
}

/** Which face draws Han characters: Japanese text (or track) the Japanese one, Korean the Korean, else Chinese. */
export function hanScriptFor(language: string | null, text: string): FontScript {
  const lang = language?.toLowerCase().split('-')[0];
  if (lang === 'ja' || KANA.test(text)) return 'ja';
  if (lang === 'ko') return 'ko';
  return 'zh';
}

/** `text` cut into runs of one script each (neutral characters join the run they sit in). */
export function scriptRuns(text: string, hanScript: FontScript): { script: FontScript; text: string }[] {
  const chars = [...text];
  const scripts = chars.map((c) => scriptOf(c, hanScript));
  const first = scripts.find((s) => s !== null) ?? 'latin';
  const runs: { script: FontScript; text: string }[] = [];
  let current: FontScript = first;
  chars.forEach((c, i) => {
    current = scripts[i] ?? current;
    const last = runs[runs.length - 1];
    if (last && last.script === current) last.text += c;
    else runs.push({ script: current, text: c });
  });
  return runs;
}

/**
 * Text as ASS shows it literally: a backslash is followed by a word joiner (so `\N`, `\h` or a
 * tag name after it stays text), braces are escaped (libass shows `\{` as `{`), line breaks are spaces.
 */
export function escapeAssText(text: string): string {
  return text
    .replace(/[\r\n\u2028\u2029]+/g, ' ')
    .replace(/\\/g, '\\\u2060')
    .replace(/[{}]/g, (b) => `\\${b}`);
}

/** '#rrggbb' (and an alpha, 0 opaque … 255 clear) as ASS's &HAABBGGRR. */
export function assColour(hex: string, alpha = 0): string {
  const v = hex.replace('#', '');
  const hh = (n: number) => n.toString(16).padStart(2, '0').toUpperCase();
  return `&H${hh(alpha)}${v.slice(4, 6)}${v.slice(2, 4)}${v.slice(0, 2)}`.toUpperCase();
}

/** H:MM:SS.cc */
export function assTime(sec: number): string {
  const cs = Math.max(0, Math.round(sec * 100));
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const s = Math.floor((cs % 6000) / 100);
  const c = cs % 100;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}.${String(c).padStart(2, '0')}`;
}

const ALIGNMENT = { bottom: 2, middle: 5, top: 8 } as const;

/** What one line of caption holds at this size: Latin about half an em per character, CJK one. */
function lineChars(frame: Frame, fontSize: number, marginX: number, cjk: boolean): number {
  const room = frame.width - 2 * marginX;
  return Math.max(8, Math.min(cjk ? 16 : 42, Math.floor(room / (fontSize * (cjk ? 1.0 : 0.55)))));
}

const CJK_LANGUAGES = new Set(['zh', 'ja', 'ko', 'yue']);

/** The whole subtitle file for one render. */
export function buildAss(input: AssInput): AssDocument {
  const { style, frame } = input;
  const preset = PRESET_DEFAULTS[style.preset];
  const scale = Math.min(frame.width, frame.height) / 1080;
  const fontSize = Math.round((style.size ?? preset.size) * scale);
  const marginX = Math.round(frame.width * 0.06);
  const marginV = Math.round(frame.height * 0.06);
  const bold = preset.bold;
  const position = style.position ?? preset.position;
  const karaoke = style.preset === 'karaoke';
  const boxed = style.preset === 'boxed';
  const outline = boxed
    ? Math.round(fontSize * 0.22)
    : Math.max(1, Math.round(fontSize * (style.preset === 'social' ? 0.09 : 0.06)));
  const latinFace = fontName('latin', style.font, bold);
  const lang = input.language?.toLowerCase().split('-')[0] ?? null;
  const cjk = !!lang && CJK_LANGUAGES.has(lang);

  // Karaoke: words already spoken take the highlight (primary), the rest the text colour (secondary).
  const primary = karaoke ? style.highlight_color : style.text_color;
  const secondary = karaoke ? style.text_color : style.highlight_color;
  const outlineColour = assColour(style.outline_color, boxed ? 0x40 : 0);
  const styleLine = [
    'Caption',
    latinFace,
    fontSize,
    assColour(primary),
    assColour(secondary),
    outlineColour,
    assColour('#000000', boxed ? 0x40 : 0x80),
    bold ? -1 : 0,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    boxed ? 3 : 1,
    outline,
    boxed ? 0 : Math.round(outline / 2),
    ALIGNMENT[position],
    marginX,
    marginX,
    marginV,
    1,
  ].join(',');
  const markSize = Math.max(12, Math.round(Math.min(frame.width, frame.height) * 0.03));
  const markLine = [
    'Mark',
    fontName('latin', 'sans', false),
    markSize,
    assColour('#ffffff', 0x40),
    assColour('#ffffff', 0x40),
    assColour('#000000', 0x80),
    assColour('#000000', 0xff),
    0,
    0,
    0,
    0,
    100,
    100,
    0,
    0,
    1,
    Math.max(1, Math.round(markSize * 0.08)),
    0,
    9,
    Math.round(markSize * 0.8),
    Math.round(markSize * 0.8),
    Math.round(markSize * 0.6),
    1,
  ].join(',');

  const speakerColour = new Map(input.speakers.map((s) => [s.id, s.color]));
  const cues = subtitleCues(input.segments, {
    language: input.language,
    maxLines: style.max_lines,
    maxLineChars: lineChars(frame, fontSize, marginX, cjk),
    withTokens: karaoke,
  });

  const scripts = new Set<FontScript>(['latin']);
  const events: string[] = [];
  const from = input.offset;
  const to = input.offset + input.duration;
  for (const cue of cues) {
    if (cue.end <= from || cue.start >= to) continue;
    const start = Math.max(0, cue.start - from);
    const end = Math.min(input.duration, cue.end - from);
    if (end - start < 0.01) continue;
    const hanScript = hanScriptFor(input.language, cue.lines.join(''));
    let colourTag = '';
    const chip = style.speaker_colors && cue.speaker ? speakerColour.get(cue.speaker) : undefined;
    // A speaker's colour replaces the text colour (karaoke: the words not yet spoken).
    if (chip) colourTag = `{\\${karaoke ? 2 : 1}c&H${assColour(chip).slice(4)}&}`;
    const body =
      karaoke && cue.tokens?.length
        ? karaokeText(cue, from, hanScript, latinFace, bold, style, scripts)
        : plainText(cue, hanScript, latinFace, bold, style, scripts);
    events.push(`Dialogue: 0,${assTime(start)},${assTime(end)},Caption,,0,0,0,,${colourTag}${body}`);
  }
  if (input.watermark) {
    events.push(
      `Dialogue: 1,${assTime(0)},${assTime(input.duration + 1)},Mark,,0,0,0,,${escapeAssText(input.watermark)}`,
    );
  }

  const text = [
    '[Script Info]',
    '; Written by ClipScribe',
    'ScriptType: v4.00+',
    `PlayResX: ${frame.width}`,
    `PlayResY: ${frame.height}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    'YCbCr Matrix: TV.709',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: ${styleLine}`,
    `Style: ${markLine}`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
  return { text, scripts };
}

/** A run of text in its script's face (the caption's own face for Latin). */
function runsText(
  text: string,
  hanScript: FontScript,
  latinFace: string,
  bold: boolean,
  style: RenderStyle,
  scripts: Set<FontScript>,
): string {
  let out = '';
  for (const run of scriptRuns(text, hanScript)) {
    scripts.add(run.script);
    const escaped = escapeAssText(run.text);
    out +=
      run.script === 'latin'
        ? escaped
        : `{\\fn${fontName(run.script, style.font, bold)}}${escaped}{\\fn${latinFace}}`;
  }
  return out;
}

function plainText(
  cue: Cue,
  hanScript: FontScript,
  latinFace: string,
  bold: boolean,
  style: RenderStyle,
  scripts: Set<FontScript>,
): string {
  return cue.lines.map((line) => runsText(line, hanScript, latinFace, bold, style, scripts)).join('\\N');
}

/**
 * Karaoke: each token gets `{\kN}` (N centiseconds until the next token starts), so the word
 * lights up when it is spoken; the cue's line breaks fall between tokens.
 */
function karaokeText(
  cue: Cue,
  offset: number,
  hanScript: FontScript,
  latinFace: string,
  bold: boolean,
  style: RenderStyle,
  scripts: Set<FontScript>,
): string {
  const tokens = cue.tokens!;
  const full = tokens.map((t) => t.text).join('');
  // Where each line ends in the cue's text: a break goes after the token that reaches it.
  const breaks: number[] = [];
  let cursor = 0;
  for (const line of cue.lines.slice(0, -1)) {
    const at = full.indexOf(line, cursor);
    const end = at < 0 ? cursor + line.length : at + line.length;
    breaks.push(end);
    cursor = end;
  }
  const cs = (sec: number) => Math.round((sec - offset) * 100);
  let out = '';
  const first = cs(Math.max(cue.start, offset));
  const lead = cs(Math.max(tokens[0]!.start, offset)) - first;
  if (lead > 0) out += `{\\k${lead}}`;
  let pos = 0;
  tokens.forEach((t, i) => {
    const startCs = cs(Math.max(t.start, offset));
    const nextCs =
      i + 1 < tokens.length
        ? cs(Math.max(tokens[i + 1]!.start, offset))
        : cs(Math.max(t.end, t.start, offset));
    const k = Math.max(0, nextCs - startCs);
    pos += t.text.length;
    let text = t.text;
    let lineBreak = false;
    while (breaks.length && pos >= breaks[0]!) {
      breaks.shift();
      lineBreak = true;
    }
    if (lineBreak) text = text.trimEnd();
    out += `{\\k${k}}${runsText(text, hanScript, latinFace, bold, style, scripts)}${lineBreak ? '\\N' : ''}`;
  });
  return out;
}
