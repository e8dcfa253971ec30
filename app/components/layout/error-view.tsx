import { isRouteErrorResponse, Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { isbot } from 'isbot';
import { useLocalePath, useRootData } from '../../lib/use-locale';
import type { NotFoundKind } from '../../lib/not-found';

interface ErrorInfo {
  status: number;
  title: string;
  description: string;
}

/** docs/product.md#errors-people-see: 404 → 'Page Not Found'; otherwise the status message or 'Internal Server Error'. */
export function useErrorInfo(error: unknown): ErrorInfo {
  const { t } = useTranslation();
  if (isRouteErrorResponse(error)) {
    const data = (error.data ?? {}) as { kind?: NotFoundKind; path?: string; message?: string };
    if (error.status === 404) {
      const path = data.path ?? '';
      const description =
        data.kind === 'fatal'
          ? t('errors.notFoundFatal', { path })
          : data.kind
            ? t('errors.notFoundPath', { path })
            : (data.message ?? '');
      return { status: 404, title: t('errors.notFoundTitle'), description };
    }
    const text = typeof error.data === 'string' ? error.data : (data.message ?? '');
    return {
      status: error.status || 500,
      title: error.statusText || t('errors.internal'),
      description: text,
    };
  }
  const message = error instanceof Error ? error.message : '';
  return { status: 500, title: t('errors.internal'), description: message };
}

export function ErrorView({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const info = useErrorInfo(error);
  // Crawlers get the status and title only: details are reported, not displayed.
  // The server decides from the request's user agent; only when the root itself failed (no
  // loader data) does the browser's own user agent answer.
  const root = useRootData();
  const crawler = root ? root.crawler : typeof navigator !== 'undefined' && isbot(navigator.userAgent);
  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center px-6 py-24 text-center"
      data-testid="error-page"
    >
      <p className="text-sm font-semibold tracking-widest text-brand-600">{info.status}</p>
      <h1 className="mt-3 text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">{info.title}</h1>
      {info.description && !crawler ? (
        <p className="mt-4 break-all text-base text-slate-600" data-testid="error-description">
          {info.description}
        </p>
      ) : null}
      <Link
        to={lp('/')}
        className="mt-10 rounded-lg bg-brand-600 px-5 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
      >
        {t('errors.backHome')}
      </Link>
    </section>
  );
}
