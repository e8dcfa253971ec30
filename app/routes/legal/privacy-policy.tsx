import type { Route } from './+types/privacy-policy';
import { pageMeta } from '../../lib/meta';
import { LegalDocument, legalLoader } from '../../components/layout/legal-document';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.privacy.title', { descriptionKey: 'pages.privacy.description' });
export const loader = (args: Route.LoaderArgs) => legalLoader('privacy-policy', args);

export default function PrivacyPolicy({ loaderData }: Route.ComponentProps) {
  return <LegalDocument text={loaderData.text} />;
}
