import { useTranslation } from 'react-i18next';
import { apiUrl } from '../../lib/api';
import { useFormat } from '../../lib/use-format';
import { renderLive, type RenderItem } from '../../lib/use-renders';

const small =
  'rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50';

/** Waiting, a bar while it runs (with Cancel), the translated reason when it failed. */
export function RenderProgress({
  render,
  onCancel,
}: {
  render: RenderItem;
  onCancel: (id: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  if (render.status === 'failed') {
    return (
      <p role="alert" className="text-sm text-red-700" data-testid="render-error">
        {t(`errors.render.reasons.${render.error ?? 'internal'}`, {
          defaultValue: t('errors.render.reasons.internal'),
        })}
      </p>
    );
  }
  if (!renderLive(render)) return null;
  return (
    <div className="flex items-center gap-3" data-testid="render-progress" data-status={render.status}>
      <div className="min-w-0 flex-1">
        <p className="text-xs text-slate-600">
          {render.status === 'queued'
            ? t('render.queued')
            : t('render.running', { percent: render.progress })}
        </p>
        <div
          className="mt-1 h-2 overflow-hidden rounded-full bg-slate-200"
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={render.progress}
          aria-label={t('render.title')}
        >
          <div
            className="h-full rounded-full bg-brand-600 transition-[width]"
            style={{ width: `${Math.max(2, render.progress)}%` }}
          />
        </div>
      </div>
      <button
        type="button"
        className={small}
        onClick={() => void onCancel(render.id)}
        data-testid="render-cancel"
      >
        {t('common.cancel')}
      </button>
    </div>
  );
}

/** The transcript's captioned videos, newest first: what each was, its state and its download. */
export function RenderList({
  items,
  onCancel,
}: {
  items: RenderItem[];
  onCancel: (id: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <section aria-labelledby="render-list-title">
      <h3 id="render-list-title" className="text-sm font-semibold text-slate-900">
        {t('render.past')}
      </h3>
      {items.length === 0 ? (
        <p className="mt-1 text-xs text-slate-500">{t('render.none')}</p>
      ) : (
        <ul className="mt-2 divide-y divide-slate-100" data-testid="render-list">
          {items.map((r) => (
            <li
              key={r.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm"
              data-status={r.status}
            >
              <span className="min-w-0 flex-1">
                <span className="font-medium text-slate-800">
                  {t(`render.presets.${r.options.style?.preset ?? 'classic'}`)}
                  {' · '}
                  {t(`render.shapes.${(r.options.shape ?? 'original').replace(':', 'x')}`)}
                </span>
                <span className="block text-xs text-slate-500">
                  {[
                    fmt.isoDate(r.created_at),
                    fmt.duration(r.duration_sec),
                    r.width && r.height ? `${r.width}×${r.height}` : null,
                    r.size ? fmt.fileSize(r.size) : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
              </span>
              {r.status === 'done' && r.file_url ? (
                <a
                  href={apiUrl(`${r.file_url}?download=1`)}
                  download
                  className="rounded-md bg-brand-600 px-2.5 py-1 text-xs font-semibold text-white hover:bg-brand-700"
                  data-testid="render-download"
                >
                  {t('render.download')}
                </a>
              ) : r.status === 'done' ? (
                <span className="text-xs text-slate-500">{t('render.expired')}</span>
              ) : renderLive(r) ? (
                <span className="text-xs text-slate-600">
                  {r.status === 'queued' ? t('render.queued') : t('render.running', { percent: r.progress })}
                </span>
              ) : r.status === 'failed' ? (
                <span className="w-full">
                  <RenderProgress render={r} onCancel={onCancel} />
                </span>
              ) : (
                <span className="text-xs text-slate-500">{t('render.canceled')}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
