import type { Route } from './+types/share';
import { notFound, requireUuid } from '../../lib/not-found';

// Revoked, expired and unknown share links all answer 404 alike.
export function loader({ params, request }: Route.LoaderArgs) {
  requireUuid(params.id, request);
  const url = new URL(request.url);
  throw notFound('unknown', url.pathname);
}

export default function SharedTranscript() {
  return null;
}
