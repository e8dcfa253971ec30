// New-build detection (docs/product.md#navigation): poll builds/latest.json; once the id differs, the next
// navigation becomes a full page load, at most once per path within 10 s.
export const BUILD_CHECK_INTERVAL_MS = 3_600_000;
export const RELOAD_GUARD_MS = 10_000;
const GUARD_KEY = 'clipscribe_reload_guard';

let stale = false;

export function isBuildStale(): boolean {
  return stale;
}

export async function checkBuild(currentId: string): Promise<boolean> {
  try {
    const res = await fetch(`/builds/latest.json?timestamp=${Date.now()}`, { cache: 'no-store' });
    const latest = (await res.json()) as { id?: string };
    if (latest.id && latest.id !== currentId) stale = true;
  } catch {
    // Offline or server restarting: try again at the next interval.
  }
  return stale;
}

/** Full reload of `href` unless this path was already reloaded in the last 10 s. */
export function reloadOnce(href: string, now = Date.now()): boolean {
  const path = new URL(href, window.location.href).pathname;
  let guard: Record<string, number> = {};
  try {
    guard = JSON.parse(sessionStorage.getItem(GUARD_KEY) ?? '{}') as Record<string, number>;
  } catch {
    guard = {};
  }
  const last = guard[path];
  if (last && now - last < RELOAD_GUARD_MS) return false;
  guard[path] = now;
  try {
    sessionStorage.setItem(GUARD_KEY, JSON.stringify(guard));
  } catch {
    // Private mode without storage: still reload, the guard is best effort there.
  }
  window.location.assign(href);
  return true;
}

const CHUNK_ERROR =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported|Failed to fetch dynamically/i;

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_ERROR.test(error.message);
}
