import { and, count, gte, inArray, lt, ne, sum } from 'drizzle-orm';
import { limitsFor, type RankLimits } from '../../../common/ranks';
import type { Db } from '../../db/client';
import { transcripts, usageRecords, type User } from '../../db/schema';
import { AdmissionCode } from '../../../common/error-codes';
import { ApiError } from '../errors';
import { usagePeriod } from '../billing/period';
import { poolOf, workspacePlanById } from '../workspaces/plan';

/**
 * Minutes charged in the current usage period (calendar month, or billing months) of the plan
 * `user` holds: pooled over every workspace it pays for (its personal one and the teams it owns),
 * whoever in them transcribed.
 */
export async function minutesUsed(
  db: Db,
  user: Pick<User, 'id' | 'periodAnchor'>,
  now: Date,
): Promise<number> {
  const { start, end } = usagePeriod(user.periodAnchor, now);
  const [row] = await db
    .select({ seconds: sum(usageRecords.seconds) })
    .from(usageRecords)
    .where(
      and(
        inArray(usageRecords.workspaceId, poolOf(db, user.id)),
        gte(usageRecords.createdAt, start),
        lt(usageRecords.createdAt, end),
      ),
    );
  return Number(row?.seconds ?? 0) / 60;
}

async function activeJobs(db: Db, holderId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(transcripts)
    .where(
      and(
        inArray(transcripts.workspaceId, poolOf(db, holderId)),
        inArray(transcripts.status, ['queued', 'processing']),
      ),
    );
  return row?.n ?? 0;
}

export interface AdmissionRequest {
  /** Bytes about to be uploaded. */
  sizeBytes?: number;
  /** Known once the file is probed. */
  durationSec?: number;
  /**
   * A transcript that already counts as a job (a link import whose download just ended): it is
   * not counted against itself, and its jobs-at-once check was made when it was created.
   */
  forTranscript?: string;
  /**
   * The workspace the file goes to: its plan (its owner's) decides, and its pool is charged.
   * Without it, the user's own plan and pool (their personal workspace's).
   */
  workspaceId?: string;
}

/**
 * The one place that says whether a file may be transcribed now: file size, duration, minutes
 * left in the period (counting jobs already waiting) and jobs running at once. The numbers come
 * from the rank table (common/ranks.ts) for the workspace's plan, counted over its pool.
 */
export async function assertAdmission(
  db: Db,
  user: User,
  request: AdmissionRequest,
  now: Date,
): Promise<RankLimits> {
  const plan = request.workspaceId ? await workspacePlanById(db, request.workspaceId) : null;
  const limits = plan ? plan.limits : limitsFor(user.rankName, user.customLimits);
  const holder = plan ? plan.holder : user;
  if (request.sizeBytes !== undefined && request.sizeBytes > limits.max_file_mb * 1024 * 1024) {
    throw new ApiError(AdmissionCode.FILE_TOO_LARGE, 'errors.transcripts.fileTooLarge', {
      limit_mb: limits.max_file_mb,
    });
  }
  if (request.durationSec !== undefined && request.durationSec > limits.max_duration_minutes * 60) {
    throw new ApiError(AdmissionCode.DURATION_TOO_LONG, 'errors.transcripts.durationTooLong', {
      limit_minutes: limits.max_duration_minutes,
    });
  }
  if (limits.minutes_per_month !== null) {
    // A team without an owner (its last one's account is gone) has no minutes to draw on.
    const used = holder ? await minutesUsed(db, holder, now) : limits.minutes_per_month;
    const pending = holder ? await pendingMinutes(db, holder.id, request.forTranscript) : 0;
    const left = Math.max(0, limits.minutes_per_month - used - pending);
    const needed = (request.durationSec ?? 0) / 60;
    if (left <= 0 || needed > left) {
      throw new ApiError(AdmissionCode.QUOTA_EXCEEDED, 'errors.transcripts.quotaExceeded', {
        minutes_left: Math.floor(left * 10) / 10,
      });
    }
  }
  if (
    !request.forTranscript &&
    (holder ? await activeJobs(db, holder.id) : limits.concurrent_jobs) >= limits.concurrent_jobs
  ) {
    throw new ApiError(AdmissionCode.TOO_MANY_JOBS, 'errors.transcripts.tooManyJobs', {
      limit: limits.concurrent_jobs,
      count: limits.concurrent_jobs, // picks the message's plural form
    });
  }
  return limits;
}

/** Minutes of jobs accepted but not finished: they will be charged when they succeed. */
async function pendingMinutes(db: Db, holderId: string, except?: string): Promise<number> {
  const [row] = await db
    .select({ seconds: sum(transcripts.durationSec) })
    .from(transcripts)
    .where(
      and(
        inArray(transcripts.workspaceId, poolOf(db, holderId)),
        inArray(transcripts.status, ['queued', 'processing']),
        except ? ne(transcripts.id, except) : undefined,
      ),
    );
  return Number(row?.seconds ?? 0) / 60;
}
