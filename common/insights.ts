// What the AI layer produces from a transcript (docs/decisions/0033-insights.md), as stored and
// as the API and the page read it. Pure: the server validates model output into these shapes, the
// page renders them, the exports write chapters from them.
import { z } from 'zod';
import { LOCALES, type Locale } from './locales';
import type { InsightKind, InsightStage, InsightStatus } from './record-states';

export type { InsightKind, InsightStage, InsightStatus };

/**
 * The language of an output: one of the ten interface languages, or `transcript` (the
 * transcript's own language, whatever it is).
 */
export const INSIGHT_LANGUAGES = [...LOCALES, 'transcript'] as const;
export type InsightLanguage = Locale | 'transcript';

/** A place in the transcript a statement comes from: the segment's index and its start (seconds). */
export const citationSchema = z.object({
  segment: z.number().int().min(0),
  start: z.number().min(0),
});
export type Citation = z.infer<typeof citationSchema>;

const citedSchema = z.object({ text: z.string(), cites: z.array(citationSchema) });
export type CitedText = z.infer<typeof citedSchema>;

export const summarySchema = z.object({
  bottomLine: citedSchema,
  keyPoints: z.array(citedSchema),
  decisions: z.array(citedSchema),
  actionItems: z.array(
    citedSchema.extend({
      /** Who is to do it, when the transcript says so. */
      owner: z.string().nullable(),
      /** By when, as said (free text: "Friday", "end of March"). */
      due: z.string().nullable(),
    }),
  ),
  openQuestions: z.array(citedSchema),
});
export type Summary = z.infer<typeof summarySchema>;

export const chapterSchema = z.object({
  /** The segment the chapter starts at, and that segment's start in seconds. */
  segment: z.number().int().min(0),
  start: z.number().min(0),
  title: z.string(),
  summary: z.string(),
});
export type Chapter = z.infer<typeof chapterSchema>;
export const chaptersSchema = z.object({ chapters: z.array(chapterSchema) });
export type Chapters = z.infer<typeof chaptersSchema>;

/** One output as the API answers it. */
export interface InsightJson {
  id: string;
  transcript_id: string;
  kind: InsightKind;
  /** The template a `template` output was made with (a built-in one's id or an own one's uuid). */
  template: string | null;
  status: InsightStatus;
  /** The language asked for (`transcript`: the transcript's own). */
  language: InsightLanguage;
  /** 0–100 while running: of the sections read (long transcripts) or of the model's preparation. */
  progress: number;
  /** What the job is doing: preparing the model, reading sections, merging. */
  stage: InsightStage | null;
  summary: Summary | null;
  chapters: Chapter[] | null;
  /** A template's output: Markdown whose citations are `[12:34]` clocks. */
  markdown: string | null;
  /** The transcript was edited after this was made: the page offers to make it again. */
  stale: boolean;
  model: string | null;
  error_code: string | null;
  created_at: number;
  completed_at: number | null;
}

/** AI actions of the workspace's plan this month (null limit: unlimited). */
export interface AiUsageJson {
  used: number;
  limit: number | null;
}

/** Live events of a transcript's AI outputs (server-sent events). */
export type InsightEvent =
  | {
      type: 'insight';
      id: string;
      kind: InsightKind;
      status: InsightStatus;
      progress: number;
      stage: InsightJson['stage'];
      errorCode?: string | null;
    }
  /** Generated text, piece by piece (the JSON the model writes while it writes it). */
  | {
      type: 'insight-token';
      id: string;
      kind: InsightKind;
      /** Numbers the completions of one run (a long transcript's sections, then the merge). */
      phase: number;
      /** Characters of the phase written before this piece (common/streamed-text.ts). */
      at: number;
      text: string;
    };

/** `m:ss`-style clock with two-digit minutes (`00:00`, `12:34`, `1:02:03`): YouTube's form. */
export function chapterClock(seconds: number): string {
  const total = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const p = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${p(m)}:${p(s)}` : `${p(m)}:${p(s)}`;
}

/** Titles on one line, without characters that would break a description or a cue. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The chapters as a YouTube description block: one `00:00 Title` line each, the first at 00:00
 * (YouTube ignores a list that does not start there).
 */
export function youtubeChapters(chapters: readonly Chapter[]): string {
  return chapters
    .map((c, i) => `${chapterClock(i === 0 ? 0 : c.start)} ${oneLine(c.title) || '—'}`)
    .join('\n');
}

const vttTime = (seconds: number) => {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${p(Math.floor(ms / 3_600_000))}:${p(Math.floor(ms / 60_000) % 60)}:${p(Math.floor(ms / 1000) % 60)}.${p(ms % 1000, 3)}`;
};

/** WebVTT chapters (a `<track kind="chapters">`): one cue per chapter, to the next one's start. */
export function vttChapters(chapters: readonly Chapter[], durationSec: number | null): string {
  const cues = chapters.map((c, i) => {
    const start = i === 0 ? 0 : c.start;
    const next = chapters[i + 1]?.start;
    const end = next ?? Math.max(durationSec ?? 0, start + 1);
    const title = oneLine(c.title).replace(/-->/g, '→') || '—';
    return `${i + 1}\n${vttTime(start)} --> ${vttTime(end)}\n${title}`;
  });
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

/** Every citation of a summary, in reading order (for counting and checks). */
export function summaryCitations(s: Summary): Citation[] {
  return [s.bottomLine, ...s.keyPoints, ...s.decisions, ...s.actionItems, ...s.openQuestions].flatMap(
    (p) => p.cites,
  );
}

/** The headings a summary's Markdown uses, in the reader's language. */
export interface SummaryLabels {
  bottomLine: string;
  keyPoints: string;
  decisions: string;
  actionItems: string;
  openQuestions: string;
  owner: (name: string) => string;
  due: (date: string) => string;
}

const cites = (cs: readonly Citation[]) => cs.map((c) => `[${chapterClock(c.start)}]`).join(' ');
const item = (p: CitedText, extra = '') => `- ${p.text}${extra}${p.cites.length ? ` ${cites(p.cites)}` : ''}`;

/** A summary as Markdown, its citations as `[12:34]` timestamps; empty sections are left out. */
export function summaryMarkdown(s: Summary, labels: SummaryLabels): string {
  const parts = [
    `## ${labels.bottomLine}`,
    `${s.bottomLine.text}${s.bottomLine.cites.length ? ` ${cites(s.bottomLine.cites)}` : ''}`,
  ];
  const section = (title: string, lines: string[]) => {
    if (lines.length) parts.push('', `## ${title}`, ...lines);
  };
  section(
    labels.keyPoints,
    s.keyPoints.map((p) => item(p)),
  );
  section(
    labels.decisions,
    s.decisions.map((p) => item(p)),
  );
  section(
    labels.actionItems,
    s.actionItems.map((a) =>
      item(
        a,
        [a.owner ? ` (${labels.owner(a.owner)})` : '', a.due ? ` (${labels.due(a.due)})` : ''].join(''),
      ),
    ),
  );
  section(
    labels.openQuestions,
    s.openQuestions.map((p) => item(p)),
  );
  return `${parts.join('\n')}\n`;
}
