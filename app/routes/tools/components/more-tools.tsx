import type { Route } from './+types/more-tools';
import { pageMeta } from '../../../lib/meta';
import { BlockGallery, galleryLoader } from '../../../components/tools/block-gallery';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.components.kinds.moreTools', { noindex: true });
export const loader = (args: Route.LoaderArgs) => galleryLoader(args);

export default function Gallery({ loaderData }: Route.ComponentProps) {
  return <BlockGallery kind="moreTools" page={loaderData.page} />;
}
