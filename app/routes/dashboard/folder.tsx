import type { Route } from './+types/folder';
import { notFound, requireUuid } from '../../lib/not-found';
import { pageMeta } from '../../lib/meta';
import { Workspace } from '../../components/transcripts/workspace';
import { reloadAction } from '../../lib/form-action';

// A malformed id fails route validation (fatal 404); a well-formed id that names no folder of
// the viewer's is an ordinary 404.
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const id = requireUuid(params.id, request);
  const folder = await context.getFolder(id);
  if (!folder) throw notFound('unknown', new URL(request.url).pathname);
  return { folder };
}

// Its forms need the page's scripts; one posted before they ran just reloads the page.
export const action = reloadAction;

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.folder.title', { noindex: true });

export default function FolderPage({ loaderData }: Route.ComponentProps) {
  return <Workspace key={loaderData.folder.id} folder={loaderData.folder} />;
}
