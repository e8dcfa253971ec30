import type { User } from '../../db/schema';
import {
  limitsFor,
  lockedFormats,
  standardRank,
  type LockedFormat,
  type RankLimits,
} from '../../../common/ranks';
import { usagePeriod } from '../billing/period';

export interface PermissionsQuota extends RankLimits {
  minutes_used: number;
  minutes_left: number | null;
  period_start: string;
  period_end: string;
  /** The formats this plan cannot export, each with the cheapest plan that can (null: ask us). */
  export_formats_locked: LockedFormat[];
}

/** GET /common-api/v1/user's data: the user, the rank's limits with usage, and the rank. */
export function userPayload(user: User, usage: { minutesUsed: number }, now: Date) {
  const limits = limitsFor(user.rankName, user.customLimits);
  const { start, end } = usagePeriod(user.periodAnchor, now);
  const used = Math.round(usage.minutesUsed * 100) / 100;
  const permissions_quota: PermissionsQuota = {
    ...limits,
    minutes_used: used,
    minutes_left: limits.minutes_per_month === null ? null : Math.max(0, limits.minutes_per_month - used),
    period_start: start.toISOString(),
    period_end: end.toISOString(),
    export_formats_locked: lockedFormats(user.rankName, limits.export_formats),
  };
  return {
    user: {
      id: user.id,
      email: user.email,
      name: user.name,
      avatar: user.avatar,
      rank_name: user.rankName,
      language: user.language,
      email_verified: user.emailVerified,
      has_password: user.passwordHash !== null,
      google_linked: user.googleSub !== null,
      created_at: user.createdAt.toISOString(),
    },
    permissions_quota,
    rank: {
      name: user.rankName,
      standard: standardRank(user.rankName),
      customized: standardRank(user.rankName) === null,
    },
  };
}
