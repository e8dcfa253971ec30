import type { RetryOptions, RunOptions } from '../../../common/run-options';
import type { transcripts } from '../../db/schema';

type Columns = Partial<typeof transcripts.$inferInsert>;

/** Where a run's options are stored (name and folder are the caller's: they need checks first). */
export function runColumns(o: RunOptions) {
  return {
    language: o.language,
    translate: o.translate,
    engineChoice: o.engine,
    detectSpeech: o.detect_speech,
    detectSpeakers: o.detect_speakers,
    speakerCount: o.detect_speakers ? (o.speaker_count ?? null) : null,
  } satisfies Columns;
}

/** What "Try again" changes: only the options it was given; the others stay as they were. */
export function retryColumns(o: RetryOptions): Columns {
  const speakers = o.detect_speakers;
  return {
    ...(o.detect_speech === undefined ? {} : { detectSpeech: o.detect_speech }),
    ...(speakers === undefined ? {} : { detectSpeakers: speakers, speakerCount: null }),
    ...(speakers !== false && o.speaker_count !== undefined ? { speakerCount: o.speaker_count } : {}),
  };
}
