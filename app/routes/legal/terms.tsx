import type { Route } from './+types/terms';
import { pageMeta } from '../../lib/meta';
import { LegalDocument, legalLoader } from '../../components/layout/legal-document';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.terms.title', { descriptionKey: 'pages.terms.description' });
export const loader = (args: Route.LoaderArgs) => legalLoader('terms', args);

export default function Terms({ loaderData }: Route.ComponentProps) {
  return <LegalDocument text={loaderData.text} />;
}
