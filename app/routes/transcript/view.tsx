import type { Route } from './+types/view';
import { notFound, requireUuid } from '../../lib/not-found';

// A malformed id fails route validation (fatal 404); a well-formed id that names nothing the
// user owns is an ordinary 404.
export function loader({ params, request }: Route.LoaderArgs) {
  requireUuid(params.id, request);
  const url = new URL(request.url);
  throw notFound('unknown', url.pathname);
}

export default function Page() {
  return null;
}
