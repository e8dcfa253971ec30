import { useRouteLoaderData } from 'react-router';
import type { Viewer } from '../../common/app-context';

/** The logged-in user as the language route's guard saw it, or null. */
export function useViewer(): Viewer | null {
  const data = useRouteLoaderData('lang') as { viewer: Viewer | null } | undefined;
  return data?.viewer ?? null;
}
