import type { Route } from './+types/hero';
import { pageMeta } from '../../../lib/meta';
import { BlockGallery, galleryLoader } from '../../../components/tools/block-gallery';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.components.kinds.hero', { noindex: true });
export const loader = (args: Route.LoaderArgs) => galleryLoader(args);

export default function Gallery({ loaderData }: Route.ComponentProps) {
  return <BlockGallery kind="hero" page={loaderData.page} />;
}
