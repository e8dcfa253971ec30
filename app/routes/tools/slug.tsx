import type { Route } from './+types/slug';
import { notFound } from '../../lib/not-found';

// /tools/{slug}: pages come from the seo-landing content; a path without a page is a 404
// with the message 'Page not found: {path}' (spec §2).
export function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  throw notFound('tool', url.pathname);
}

export default function ToolPage() {
  return null;
}
