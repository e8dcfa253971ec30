import type { Route } from './+types/features';
import { pageMeta } from '../../../lib/meta';
import { BlockGallery, galleryLoader } from '../../../components/tools/block-gallery';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.components.kinds.features', { noindex: true });
export const loader = (args: Route.LoaderArgs) => galleryLoader(args);

export default function Gallery({ loaderData }: Route.ComponentProps) {
  return <BlockGallery kind="features" page={loaderData.page} />;
}
