import type { Route } from './+types/index';
import { pageMeta } from '../../lib/meta';
import { Workspace } from '../../components/transcripts/workspace';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.dashboard.title', { noindex: true });

export default function Dashboard() {
  return <Workspace folder={null} />;
}
