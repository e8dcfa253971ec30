import { eq } from 'drizzle-orm';
import { transcripts, type Transcript } from '../../db/schema';
import type { TranscriptionDeps } from './deps';

// Reads of a whole transcript row under way, by id: callers asking at the same moment (every event
// stream watching a job that just ended) share one read instead of each parsing the whole text.
const reading = new Map<string, Promise<Transcript | undefined>>();

/** The whole row (no ownership check: the caller has made it), or undefined when it is gone. */
export function sharedRow(d: Pick<TranscriptionDeps, 'db'>, id: string): Promise<Transcript | undefined> {
  const pending = reading.get(id);
  if (pending) return pending;
  const read = d.db
    .select()
    .from(transcripts)
    .where(eq(transcripts.id, id))
    .then(([row]) => row)
    .finally(() => reading.delete(id));
  reading.set(id, read);
  return read;
}
