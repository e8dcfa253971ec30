import { data } from 'react-router';
import { UUID_RE } from '../../common/validators';

export type NotFoundKind = 'unknown' | 'fatal' | 'tool';

/** 404 for an unknown route ('Page not found: …') or a failed route validation ('Page Not Found: …'). */
export function notFound(kind: NotFoundKind, path: string) {
  return data({ kind, path }, { status: 404, statusText: 'Not Found' });
}

/** Route validation for id parameters: a malformed id is a fatal 404 before any lookup. */
export function requireUuid(value: string | undefined, request: Request): string {
  if (!value || !UUID_RE.test(value)) throw notFound('fatal', new URL(request.url).pathname);
  return value.toLowerCase();
}
