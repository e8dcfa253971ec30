import type { Route } from './+types/index';
import { pageMeta } from '../../lib/meta';
import { Workspace } from '../../components/transcripts/workspace';
import { reloadAction } from '../../lib/form-action';

// Its forms need the page's scripts; one posted before they ran just reloads the page.
export const action = reloadAction;

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.dashboard.title', { noindex: true });

export default function Dashboard() {
  return <Workspace folder={null} />;
}
