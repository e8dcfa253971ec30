import type { Route } from './+types/steps';
import { pageMeta } from '../../../lib/meta';
import { BlockGallery, galleryLoader } from '../../../components/tools/block-gallery';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.components.kinds.steps', { noindex: true });
export const loader = (args: Route.LoaderArgs) => galleryLoader(args);

export default function Gallery({ loaderData }: Route.ComponentProps) {
  return <BlockGallery kind="steps" page={loaderData.page} />;
}
