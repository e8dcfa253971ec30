import { and, eq, sql } from 'drizzle-orm';
import { TranscriptCode } from '../../../common/error-codes';
import { replaceInSegments } from '../../../common/find-replace';
import type { SegmentEdit } from '../../../common/segment-edits';
import {
  mergeSegments,
  normalizeSegments,
  segmentsToPlainText,
  shiftSegments,
  splitSegment,
  type Segment,
} from '../../../common/segments';
import { normalizeSpeakers, withKnownSpeakers, type Speaker } from '../../../common/speakers';
import { retimeWords } from '../../../common/words';
import { retimeSegment, SegmentTimeError } from '../../../common/segment-times';
import { transcripts, type Transcript } from '../../db/schema';
import type { Actor } from '../workspaces/actor';

import { ApiError } from '../errors';
import type { TranscriptionDeps } from './deps';
import { ownTranscript } from './ownership';
import { applySpeakerEdit, isSpeakerEdit } from '../speakers/edits';
import { lastEdit, recordActivity } from './activity';

/**
 * Edits apply to finished transcripts only; `updated_at` guards against lost updates: when
 * someone else saved in between, the refusal names them and when, so the page can offer their
 * version.
 */
export async function editSegments(
  deps: TranscriptionDeps,
  actor: Actor,
  id: string,
  edit: SegmentEdit,
  expectedUpdatedAt?: string,
) {
  const row = await ownTranscript(deps, actor, id, 'transcript.edit');
  if (row.status !== 'done') {
    throw new ApiError(TranscriptCode.NOT_EDITABLE, 'errors.transcripts.notEditable');
  }
  if (expectedUpdatedAt && new Date(expectedUpdatedAt).getTime() !== row.updatedAt.getTime()) {
    throw await conflict(deps, id);
  }
  const duration = row.durationSec ?? undefined;
  let next: Segment[];
  let speakers: Speaker[];
  try {
    ({ segments: next, speakers } = applyEdit(row, edit, duration, actor.user.language));
    next = withKnownSpeakers(next, speakers);
  } catch (err) {
    if (err instanceof SegmentTimeError) {
      throw new ApiError(TranscriptCode.BAD_TIME, `errors.transcripts.time_${err.problem}`, {
        limit: err.limit,
      });
    }
    if (err instanceof RangeError) {
      throw new ApiError(TranscriptCode.BAD_EDIT, 'errors.transcripts.badEdit', {
        detail: err.message,
      });
    }
    throw err;
  }
  const [updated] = await deps.db
    .update(transcripts)
    .set({
      segments: next,
      speakers,
      plainText: segmentsToPlainText(next),
      updatedAt: deps.now(),
      editedBy: actor.user.id,
      editedAt: deps.now(),
    })
    // Compared at millisecond precision: PostgreSQL keeps microseconds, JavaScript dates do not.
    .where(
      and(
        eq(transcripts.id, id),
        sql`date_trunc('milliseconds', ${transcripts.updatedAt}) = ${row.updatedAt.toISOString()}::timestamptz`,
      ),
    )
    .returning();
  if (!updated) throw await conflict(deps, id);
  await recordActivity(
    deps.db,
    {
      workspaceId: row.workspaceId,
      transcriptId: id,
      userId: actor.user.id,
      kind: 'edited',
      detail: { op: edit.op },
    },
    deps.now(),
  );
  return updated;
}

/** The lost-update refusal, naming who saved last and when (their version is the one stored). */
async function conflict(deps: TranscriptionDeps, id: string): Promise<ApiError> {
  const [row] = await deps.db
    .select({
      editedBy: transcripts.editedBy,
      editedAt: transcripts.editedAt,
      updatedAt: transcripts.updatedAt,
    })
    .from(transcripts)
    .where(eq(transcripts.id, id));
  const last = row ? await lastEdit(deps.db, row) : null;
  const by = last?.by ?? null;
  // Named when known: "Emil changed this transcript meanwhile", and the page offers their version.
  return new ApiError(
    TranscriptCode.NOT_EDITABLE,
    by ? 'errors.transcripts.editConflictBy' : 'errors.transcripts.editConflict',
    {
      name: by?.name ?? null,
      edited_by: by,
      edited_at: last?.at ?? null,
      updated_at: row?.updatedAt.toISOString() ?? null,
    },
  );
}

function applyEdit(
  row: Pick<Transcript, 'segments' | 'speakers'>,
  edit: SegmentEdit,
  duration: number | undefined,
  locale: string,
): { segments: Segment[]; speakers: Speaker[] } {
  if (edit.op === 'replace') {
    return {
      segments: normalizeSegments(edit.segments, duration),
      speakers: edit.speakers ? normalizeSpeakers(edit.speakers, locale) : row.speakers,
    };
  }
  if (isSpeakerEdit(edit)) return applySpeakerEdit(row, edit, locale);
  return { segments: applySegmentEdit(row.segments, edit, duration), speakers: row.speakers };
}

function applySegmentEdit(
  segments: Segment[],
  edit: Extract<SegmentEdit, { op: 'text' | 'split' | 'merge' | 'shift' | 'find_replace' | 'time' }>,
  duration?: number,
): Segment[] {
  switch (edit.op) {
    case 'text': {
      const seg = segments[edit.index];
      if (!seg) throw new RangeError('No such segment');
      // Unchanged words keep their timing; new or changed ones share the time around them.
      const words = retimeWords(seg, edit.text);
      const timed: Segment = words
        ? { start: seg.start, end: seg.end, text: edit.text, words }
        : { start: seg.start, end: seg.end, text: edit.text };
      const edited = seg.speaker ? { ...timed, speaker: seg.speaker } : timed;
      const copy = segments.map((s, i) => (i === edit.index ? edited : s));
      return normalizeSegments(copy, duration);
    }
    case 'split':
      return splitSegment(segments, edit.index, edit.offset);
    case 'merge':
      return mergeSegments(segments, edit.index);
    case 'time':
      return retimeSegment(segments, edit.index, edit.start, edit.end, duration);
    case 'shift':
      return shiftSegments(segments, edit.delta, edit.from ?? 0, duration);
    case 'find_replace': {
      if (edit.index !== undefined && !segments[edit.index]) throw new RangeError('No such segment');
      const replaced = replaceInSegments(segments, edit.find, edit.replace, edit.index);
      return normalizeSegments(replaced.segments, duration);
    }
  }
}
