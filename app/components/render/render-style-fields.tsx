import { useTranslation } from 'react-i18next';
import {
  PRESET_DEFAULTS,
  RENDER_FITS,
  RENDER_FONTS,
  RENDER_POSITIONS,
  RENDER_PRESETS,
  RENDER_SHAPES,
  RENDER_SIZE_RANGE,
  type RenderFit,
  type RenderFont,
  type RenderPosition,
  type RenderPreset,
  type RenderShape,
} from '../../../common/render-options';

/** The dialog's choices (what POST /transcripts/:id/renders takes, minus the range). */
export interface RenderChoices {
  preset: RenderPreset;
  font: RenderFont;
  size: number;
  text_color: string;
  outline_color: string;
  highlight_color: string;
  position: RenderPosition;
  max_lines: 1 | 2;
  speaker_colors: boolean;
  shape: RenderShape;
  fit: RenderFit;
  track: string;
  background: string;
  /** Audio-only sources: the workspace's picture instead of the colour. */
  background_image: boolean;
}

export const defaultChoices = (preset: RenderPreset = 'karaoke'): RenderChoices => ({
  preset,
  font: 'sans',
  size: PRESET_DEFAULTS[preset].size,
  text_color: '#ffffff',
  outline_color: '#000000',
  highlight_color: '#ffd400',
  position: PRESET_DEFAULTS[preset].position,
  max_lines: 2,
  speaker_colors: false,
  shape: 'original',
  fit: 'crop',
  track: 'original',
  background: '#1e293b',
  background_image: false,
});

const legend = 'text-sm font-semibold text-slate-900';
const label = 'flex flex-col gap-1 text-xs font-medium text-slate-600';
const control = 'rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm text-slate-800';
const card =
  'flex cursor-pointer flex-col items-stretch gap-1.5 rounded-lg border border-slate-200 bg-white p-2 text-left text-xs font-medium text-slate-700 has-[:checked]:border-brand-500 has-[:checked]:ring-2 has-[:checked]:ring-brand-200 has-[:focus-visible]:ring-2';

/** What each preset looks like, drawn with CSS on a dark picture (a sample, not the render). */
function PresetSample({ preset, choices }: { preset: RenderPreset; choices: RenderChoices }) {
  const { t } = useTranslation();
  const sample = t('render.sample');
  // Words where the language spaces them, else characters (Japanese, Chinese): the second word,
  // or the third and fourth characters, are the one being spoken.
  const spaced = sample.includes(' ');
  const words = spaced ? sample.split(' ') : Array.from(sample);
  const lit = (i: number) => (spaced ? i === 1 : i === 2 || i === 3);
  const outline = choices.outline_color;
  const stroke = `-1px -1px 0 ${outline}, 1px -1px 0 ${outline}, -1px 1px 0 ${outline}, 1px 1px 0 ${outline}`;
  const base = { color: choices.text_color, fontFamily: choices.font === 'serif' ? 'serif' : 'sans-serif' };
  const position = PRESET_DEFAULTS[preset].position === 'middle' ? 'items-center' : 'items-end pb-1.5';
  return (
    <span
      aria-hidden
      className={`flex h-14 justify-center overflow-hidden rounded bg-gradient-to-br from-slate-600 to-slate-800 px-1 ${position}`}
    >
      <span
        className="max-w-full truncate leading-tight"
        style={{
          ...base,
          fontSize: preset === 'social' ? 15 : 11,
          fontWeight: PRESET_DEFAULTS[preset].bold ? 700 : 400,
          textShadow: preset === 'boxed' ? undefined : stroke,
          background: preset === 'boxed' ? outline : undefined,
          padding: preset === 'boxed' ? '1px 4px' : undefined,
          textTransform: preset === 'social' ? 'uppercase' : undefined,
        }}
      >
        {preset === 'karaoke'
          ? words.map((w, i) => (
              <span key={i} style={lit(i) ? { color: choices.highlight_color } : undefined}>
                {i > 0 && spaced ? ' ' : ''}
                {w}
              </span>
            ))
          : preset === 'social'
            ? spaced
              ? words.slice(0, 2).join(' ')
              : sample
            : sample}
      </span>
    </span>
  );
}

/** Preset cards, then font, size, colours, position, lines and speaker colours. */
export function RenderStyleFields({
  choices,
  onChange,
}: {
  choices: RenderChoices;
  onChange: (next: RenderChoices) => void;
}) {
  const { t } = useTranslation();
  const set = <K extends keyof RenderChoices>(key: K, value: RenderChoices[K]) =>
    onChange({ ...choices, [key]: value });
  const choosePreset = (preset: RenderPreset) =>
    onChange({
      ...choices,
      preset,
      size: PRESET_DEFAULTS[preset].size,
      position: PRESET_DEFAULTS[preset].position,
    });
  return (
    <>
      <fieldset>
        <legend className={legend}>{t('render.style')}</legend>
        <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="render-presets">
          {RENDER_PRESETS.map((p) => (
            <label key={p} className={card} data-preset={p}>
              <input
                type="radio"
                name="render-preset"
                value={p}
                checked={choices.preset === p}
                onChange={() => choosePreset(p)}
                className="sr-only"
              />
              <PresetSample preset={p} choices={choices} />
              <span className="text-sm text-slate-900">{t(`render.presets.${p}`)}</span>
              <span className="font-normal text-slate-500">{t(`render.presetHints.${p}`)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <label className={label}>
          {t('render.font')}
          <select
            className={control}
            value={choices.font}
            onChange={(e) => set('font', e.target.value as RenderFont)}
          >
            {RENDER_FONTS.map((f) => (
              <option key={f} value={f}>
                {t(`render.fonts.${f}`)}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          {t('render.size', { n: choices.size })}
          <input
            type="range"
            min={RENDER_SIZE_RANGE.min}
            max={RENDER_SIZE_RANGE.max}
            step={2}
            value={choices.size}
            onChange={(e) => set('size', Number(e.target.value))}
            className="mt-2 accent-brand-600"
          />
        </label>
        <label className={label}>
          {t('render.position')}
          <select
            className={control}
            value={choices.position}
            onChange={(e) => set('position', e.target.value as RenderPosition)}
          >
            {RENDER_POSITIONS.map((p) => (
              <option key={p} value={p}>
                {t(`render.positions.${p}`)}
              </option>
            ))}
          </select>
        </label>
        <label className={label}>
          {t('render.lines')}
          <select
            className={control}
            value={String(choices.max_lines)}
            onChange={(e) => set('max_lines', e.target.value === '1' ? 1 : 2)}
          >
            <option value="1">{t('render.linesOne')}</option>
            <option value="2">{t('render.linesTwo')}</option>
          </select>
        </label>
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        {(
          [
            ['text_color', 'render.textColor'],
            ['outline_color', choices.preset === 'boxed' ? 'render.boxColor' : 'render.outlineColor'],
            ['highlight_color', 'render.highlightColor'],
          ] as const
        ).map(([key, text]) => (
          <label key={key} className="flex items-center gap-1.5 text-xs font-medium text-slate-600">
            <input
              type="color"
              value={choices[key]}
              onChange={(e) => set(key, e.target.value)}
              className="h-7 w-9 cursor-pointer rounded border border-slate-300 bg-white p-0.5"
            />
            {t(text)}
          </label>
        ))}
        <label className="flex items-center gap-1.5 text-xs font-medium text-slate-600">
          <input
            type="checkbox"
            checked={choices.speaker_colors}
            onChange={(e) => set('speaker_colors', e.target.checked)}
          />
          {t('render.speakerColors')}
        </label>
      </div>
    </>
  );
}

/** Original, 9:16 or 1:1, and for the last two whether the picture is cut or fitted with bars. */
export function RenderShapeFields({
  choices,
  onChange,
}: {
  choices: RenderChoices;
  onChange: (next: RenderChoices) => void;
}) {
  const { t } = useTranslation();
  const box: Record<RenderShape, string> = { original: 'h-5 w-8', '9:16': 'h-8 w-[18px]', '1:1': 'h-7 w-7' };
  return (
    <fieldset>
      <legend className={legend}>{t('render.shape')}</legend>
      <div className="mt-2 flex flex-wrap gap-2" data-testid="render-shapes">
        {RENDER_SHAPES.map((s) => (
          <label key={s} className={`${card} min-w-[6.5rem] flex-row items-center`} data-shape={s}>
            <input
              type="radio"
              name="render-shape"
              value={s}
              checked={choices.shape === s}
              onChange={() => onChange({ ...choices, shape: s })}
              className="sr-only"
            />
            <span aria-hidden className={`shrink-0 rounded-sm border-2 border-slate-500 ${box[s]}`} />
            <span className="text-sm text-slate-900">{t(`render.shapes.${s.replace(':', 'x')}`)}</span>
          </label>
        ))}
      </div>
      {choices.shape !== 'original' ? (
        <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-slate-700">
          {RENDER_FITS.map((f) => (
            <label key={f} className="flex items-center gap-1.5">
              <input
                type="radio"
                name="render-fit"
                value={f}
                checked={choices.fit === f}
                onChange={() => onChange({ ...choices, fit: f })}
              />
              {t(`render.fits.${f}`)}
            </label>
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}
