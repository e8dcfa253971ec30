import { useEffect, useState } from 'react';
import { api } from './api';

type Query = Record<string, string | number | undefined>;

/**
 * GETs an API call when the path, the query or `version` change (bump `version` to reload);
 * null while loading or on failure. A null path fetches nothing (e.g. signed out). The last
 * answer stays shown while the next one loads, and a late answer never overwrites a newer one.
 */
export function useApiGet<T>(path: string | null, query?: Query, version = 0): T | null {
  const [data, setData] = useState<T | null>(null);
  const key = JSON.stringify(query ?? {});
  useEffect(() => {
    if (!path) return;
    let live = true;
    api
      .get<T>(path, JSON.parse(key) as Query, { handleErrors: true })
      .then((d) => {
        if (live) setData(d);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [path, key, version]);
  return data;
}
