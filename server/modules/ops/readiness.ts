import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { ModelState } from '../engine/models/provision';
import type { Storage } from '../storage/storage';

/** What each dependency is: ok or down; 'off' when this deployment has none. */
export type DependencyState = 'ok' | 'down' | 'off';

export interface Readiness {
  ready: boolean;
  checks: {
    db: DependencyState;
    redis: DependencyState;
    storage: DependencyState;
    /** The transcription model where this process runs jobs ('off' elsewhere). */
    model: ModelState['state'] | 'off';
  };
}

export interface ReadinessDeps {
  db: Db;
  redis: { ping(): Promise<unknown> } | null;
  storage: Pick<Storage, 'check'>;
  /** The engine's model, once this process runs transcriptions. */
  model: () => ModelState | null;
  /** How long one check may take before its dependency counts as down. */
  timeoutMs?: number;
}

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]);
}

/**
 * Whether this process can do its work now, and which dependency is down when it cannot. The
 * model counts only for a process whose job is to transcribe (a worker): a web process answers
 * pages and uploads while the model is still on its way.
 */
export async function readiness(
  deps: ReadinessDeps,
  opts: { needsModel?: boolean } = {},
): Promise<Readiness> {
  const ms = deps.timeoutMs ?? 3_000;
  const probe = (p: () => Promise<unknown>): Promise<DependencyState> =>
    within(p(), ms).then(
      () => 'ok' as const,
      () => 'down' as const,
    );
  const [db, redis, storage] = await Promise.all([
    probe(() => deps.db.execute(sql`select 1`)),
    deps.redis ? probe(() => deps.redis!.ping()) : Promise.resolve('off' as const),
    probe(() => deps.storage.check()),
  ]);
  const model = deps.model()?.state ?? 'off';
  const ready =
    db === 'ok' && redis !== 'down' && storage === 'ok' && (!opts.needsModel || model === 'ready');
  return { ready, checks: { db, redis, storage, model } };
}
