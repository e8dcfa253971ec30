import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/affiliation';
import { pageMeta } from '../lib/meta';
import { useLocalePath } from '../lib/use-locale';
import { PageFrame } from '../components/layout/page-frame';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.affiliation.title');

/** The public explanation of the affiliate programme; it leads to /affiliate/apply. */
export default function Affiliation() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  return (
    <PageFrame
      heading={t('pages.affiliation.heading')}
      subtitle={t('pages.affiliation.subtitle')}
      width="max-w-4xl"
      actions={
        <Link
          to={lp('/affiliate/apply')}
          className="rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
        >
          {t('pages.affiliation.cta')}
        </Link>
      }
    />
  );
}
