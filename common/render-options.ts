// What a captioned-video render may be asked for (docs/decisions/0029-captioned-video.md). One
// schema for the render dialog, the API and the job: every value is one of our lists, a number in
// a range or a '#rrggbb' colour, so nothing a user types ever reaches ffmpeg's arguments.
import { z } from 'zod';

/** classic: bottom, outlined; boxed: on a box; social: big, bold, centred; karaoke: the spoken word lights up. */
export const RENDER_PRESETS = ['classic', 'boxed', 'social', 'karaoke'] as const;
export type RenderPreset = (typeof RENDER_PRESETS)[number];

/** Fonts for Latin, Greek and Cyrillic text; other scripts get the Noto face made for them. */
export const RENDER_FONTS = ['sans', 'serif'] as const;
export type RenderFont = (typeof RENDER_FONTS)[number];

export const RENDER_POSITIONS = ['bottom', 'middle', 'top'] as const;
export type RenderPosition = (typeof RENDER_POSITIONS)[number];

/** original keeps the source's shape; 9:16 and 1:1 are for shorts and feeds. */
export const RENDER_SHAPES = ['original', '9:16', '1:1'] as const;
export type RenderShape = (typeof RENDER_SHAPES)[number];

/** How a source of another shape fills 9:16 or 1:1: cut to fill, or fit inside bars. */
export const RENDER_FITS = ['crop', 'pad'] as const;
export type RenderFit = (typeof RENDER_FITS)[number];

const colour = z
  .string()
  .regex(/^#[0-9a-fA-F]{6}$/, 'validation.color')
  .transform((v) => v.toLowerCase());

/** Caption size in pixels at a 1080-pixel short side (scaled to the output's). */
export const RENDER_SIZE_RANGE = { min: 24, max: 140 } as const;

export const renderStyleSchema = z
  .object({
    preset: z.enum(RENDER_PRESETS).default('classic'),
    font: z.enum(RENDER_FONTS).default('sans'),
    size: z.number().int().min(RENDER_SIZE_RANGE.min).max(RENDER_SIZE_RANGE.max).optional(),
    text_color: colour.default('#ffffff'),
    /** The outline (classic, social), the box (boxed), or the words not yet spoken's outline (karaoke). */
    outline_color: colour.default('#000000'),
    /** The spoken word in karaoke; the emphasis colour of social. */
    highlight_color: colour.default('#ffd400'),
    position: z.enum(RENDER_POSITIONS).optional(),
    max_lines: z.union([z.literal(1), z.literal(2)]).default(2),
    /** Each speaker's lines in their chip colour. */
    speaker_colors: z.boolean().default(false),
  })
  .strict();
export type RenderStyle = z.output<typeof renderStyleSchema>;

export const renderRequestSchema = z
  .object({
    /** The captions' text: the transcript itself ('original') or one of its translation tracks (its id). */
    track: z.string().max(64).default('original'),
    style: renderStyleSchema.default(renderStyleSchema.parse({})),
    shape: z.enum(RENDER_SHAPES).default('original'),
    fit: z.enum(RENDER_FITS).default('crop'),
    /** Audio-only sources: the generated background's colour (a waveform is drawn on it). */
    background: colour.default('#1e293b'),
    /**
     * Audio-only sources: the workspace's background picture (PUT /render-background) instead of
     * the colour, the waveform drawn over it.
     */
    background_image: z.boolean().default(false),
    /**
     * A preview: RENDER_PREVIEW_SECONDS from `start`, to see the style before the whole render
     * (charged like any render, kept an hour, not listed with the videos).
     */
    preview: z.boolean().default(false),
    /** A part of the media only (a preview or a clip), in seconds; the whole media when absent. */
    start: z.number().min(0).max(86_400).optional(),
    end: z.number().min(0).max(86_400).optional(),
  })
  .strict()
  .refine((r) => r.start === undefined || r.end === undefined || r.end > r.start, {
    message: 'validation.range',
    path: ['end'],
  });
export type RenderRequest = z.output<typeof renderRequestSchema>;
export type RenderRequestInput = z.input<typeof renderRequestSchema>;

/** Each preset's own defaults where the request leaves a choice open. */
export const PRESET_DEFAULTS: Record<
  RenderPreset,
  { size: number; position: RenderPosition; bold: boolean }
> = {
  classic: { size: 54, position: 'bottom', bold: false },
  boxed: { size: 50, position: 'bottom', bold: false },
  social: { size: 84, position: 'middle', bold: true },
  karaoke: { size: 64, position: 'bottom', bold: true },
};

/** A background picture upload: at most this many bytes … */
export const RENDER_BACKGROUND_MAX_BYTES = 5 * 1024 * 1024;
/** … no side longer than this (a decoded picture's memory is bounded) nor shorter than the minimum. */
export const RENDER_BACKGROUND_MAX_SIDE = 8000;
export const RENDER_BACKGROUND_MIN_SIDE = 16;

/** How long a preview is (seconds of media from its start). */
export const RENDER_PREVIEW_SECONDS = 3;

/** The longest stretch one render may cover, whatever the plan (bounds time and output size). */
export const RENDER_MAX_SECONDS = 3 * 60 * 60;
