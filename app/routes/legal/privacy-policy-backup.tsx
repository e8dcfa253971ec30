import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/privacy-policy-backup';
import { pageMeta } from '../../lib/meta';
import { useLocalePath } from '../../lib/use-locale';
import { LegalDocument, legalLoader } from '../../components/layout/legal-document';

// The previous version of the policy, kept for reference and out of search results.
export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.privacyBackup.title', { noindex: true });
export const loader = (args: Route.LoaderArgs) => legalLoader('privacy-policy-backup', args);

export default function PrivacyPolicyBackup({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  return (
    <LegalDocument
      text={loaderData.text}
      notice={
        <p
          className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          role="note"
        >
          {t('pages.privacyBackup.notice')}{' '}
          <Link to={lp('/privacy-policy')} className="font-semibold underline">
            {t('pages.privacyBackup.current')}
          </Link>
        </p>
      }
    />
  );
}
