import type { Route } from './+types/not-found';
import { notFound } from '../lib/not-found';

// Any path no page claims: 404 'Page not found: {full path}'.
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  throw notFound('unknown', url.pathname + url.search);
}

export default function NotFound() {
  return null;
}
