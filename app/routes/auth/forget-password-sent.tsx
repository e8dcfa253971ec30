import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/forget-password-sent';
import { pageMeta } from '../../lib/meta';
import { useLocalePath } from '../../lib/use-locale';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'auth.sent.title', { noindex: true });

export default function ForgetPasswordSent() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  return (
    <div className="text-center">
      <div className="mx-auto flex h-12 w-12 items-center justify-center rounded-full bg-brand-100">
        <svg viewBox="0 0 24 24" className="h-6 w-6 text-brand-700" aria-hidden>
          <path
            fill="currentColor"
            d="M3 5h18v14H3V5zm2 2v.4l7 4.6 7-4.6V7H5zm14 2.8l-7 4.6-7-4.6V17h14V9.8z"
          />
        </svg>
      </div>
      <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900">{t('auth.sent.heading')}</h1>
      <p className="mt-2 text-sm leading-relaxed text-slate-600">{t('auth.sent.text')}</p>
      <Link
        to={lp('/login')}
        className="mt-6 inline-block text-sm font-semibold text-brand-700 hover:text-brand-900"
      >
        {t('auth.sent.back')}
      </Link>
    </div>
  );
}
