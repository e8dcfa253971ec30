// Ranks and their limits (docs/product.md#ranks: limits are ours to set). One table, used by the server
// to enforce and by /pricing to show. null means unlimited.
export const RANKS = ['Free', 'STARTER', 'BASIC', 'ADVANCED', 'UNLIMITED', 'Enterprise'] as const;
export type StandardRank = (typeof RANKS)[number];

export const EXPORT_FORMATS = ['txt', 'srt', 'vtt', 'docx', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface RankLimits {
  minutes_per_month: number | null;
  max_file_mb: number;
  max_duration_minutes: number;
  concurrent_jobs: number;
  share_links: number | null;
  export_formats: ExportFormat[];
  retention_days: number | null;
  /** Calls per minute each API key may make (docs/decisions/0018-api-keys-webhooks.md). */
  api_requests_per_minute: number;
  /**
   * Members a workspace on this rank may have (docs/decisions/0027-team-workspaces.md): a paid
   * team workspace has as many as its subscription's quantity, up to this.
   */
  seats: number;
  /** Minutes of captioned video rendered per month, pooled per workspace (modules/render). */
  render_minutes_per_month: number | null;
  /** The short side of a rendered video, in pixels (720 = 720p, 405×720 for 9:16). */
  render_max_resolution: number;
  /** A small "Made with …" mark on rendered videos. */
  render_watermark: boolean;
  /** Characters of transcript text translated per month, pooled per workspace (modules/translation). */
  translation_chars_per_month: number | null;
}

/** The numeric limits, in the order /pricing lists them; the nullable ones may be unlimited. */
export const NUMERIC_LIMITS = [
  'minutes_per_month',
  'max_file_mb',
  'max_duration_minutes',
  'concurrent_jobs',
  'share_links',
  'retention_days',
  'api_requests_per_minute',
  'seats',
  'render_minutes_per_month',
  'render_max_resolution',
  'translation_chars_per_month',
] as const satisfies readonly (keyof RankLimits)[];
export const NULLABLE_LIMITS: readonly string[] = [
  'minutes_per_month',
  'share_links',
  'retention_days',
  'render_minutes_per_month',
  'translation_chars_per_month',
];

const ALL_FORMATS: ExportFormat[] = [...EXPORT_FORMATS];

const UNLIMITED_LIMITS: RankLimits = {
  minutes_per_month: null,
  max_file_mb: 10240,
  max_duration_minutes: 600,
  concurrent_jobs: 8,
  share_links: null,
  export_formats: ALL_FORMATS,
  retention_days: null,
  api_requests_per_minute: 1200,
  seats: 50,
  render_minutes_per_month: null,
  render_max_resolution: 2160,
  render_watermark: false,
  translation_chars_per_month: null,
};

export const RANK_LIMITS: Record<StandardRank, RankLimits> = {
  Free: {
    minutes_per_month: 30,
    max_file_mb: 200,
    max_duration_minutes: 30,
    concurrent_jobs: 1,
    share_links: 3,
    // Word documents, VTT and JSON come with the paid plans.
    export_formats: ['txt', 'srt'],
    retention_days: 30,
    api_requests_per_minute: 60,
    // Teams need a paid plan: Free and STARTER are for one person.
    seats: 1,
    render_minutes_per_month: 10,
    render_max_resolution: 720,
    render_watermark: true,
    translation_chars_per_month: 20_000,
  },
  STARTER: {
    minutes_per_month: 300,
    max_file_mb: 1024,
    max_duration_minutes: 120,
    concurrent_jobs: 2,
    share_links: 25,
    export_formats: ALL_FORMATS,
    retention_days: 365,
    api_requests_per_minute: 120,
    seats: 1,
    render_minutes_per_month: 60,
    render_max_resolution: 1080,
    render_watermark: false,
    translation_chars_per_month: 200_000,
  },
  BASIC: {
    minutes_per_month: 900,
    max_file_mb: 2048,
    max_duration_minutes: 180,
    concurrent_jobs: 3,
    share_links: 100,
    export_formats: ALL_FORMATS,
    retention_days: null,
    api_requests_per_minute: 240,
    seats: 3,
    render_minutes_per_month: 180,
    render_max_resolution: 1080,
    render_watermark: false,
    translation_chars_per_month: 600_000,
  },
  ADVANCED: {
    minutes_per_month: 2400,
    max_file_mb: 5120,
    max_duration_minutes: 300,
    concurrent_jobs: 5,
    share_links: null,
    export_formats: ALL_FORMATS,
    retention_days: null,
    api_requests_per_minute: 600,
    seats: 20,
    render_minutes_per_month: 600,
    render_max_resolution: 1080,
    render_watermark: false,
    translation_chars_per_month: 2_000_000,
  },
  UNLIMITED: UNLIMITED_LIMITS,
  // Enterprise accounts carry their own limits; UNLIMITED's apply until an admin sets them.
  Enterprise: UNLIMITED_LIMITS,
};

/** The canonical spelling of a standard rank, or null for a customised one. */
export function standardRank(name: string | null | undefined): StandardRank | null {
  if (!name) return null;
  const lower = name.toLowerCase();
  return RANKS.find((r) => r.toLowerCase() === lower) ?? null;
}

/** A rank_name matching none of the six (case-insensitive) marks the user as customised. */
export function isCustomizedRank(name: string | null | undefined): boolean {
  return standardRank(name) === null;
}

/** Whether an account's limits come from its own record rather than the table. */
export function usesCustomLimits(name: string | null | undefined): boolean {
  const std = standardRank(name);
  return std === null || std === 'Enterprise';
}

/** Effective limits: the table, overlaid by per-account limits for Enterprise and custom ranks. */
export function limitsFor(name: string | null | undefined, custom?: Partial<RankLimits> | null): RankLimits {
  const std = standardRank(name);
  const base = RANK_LIMITS[std ?? 'Enterprise'];
  return usesCustomLimits(name) && custom ? { ...base, ...custom } : base;
}

/** An export format the account's plan lacks, with the cheapest plan that has it (null: none to buy). */
export interface LockedFormat {
  format: ExportFormat;
  rank: StandardRank | null;
}

/**
 * The cheapest rank at or above `from` whose limits include `format` (RANKS is in price order),
 * read from the table so that a changed limit changes every hint. null when no such rank exists.
 */
export function cheapestRankWith(
  format: ExportFormat,
  from: StandardRank = 'Free',
  table: Record<StandardRank, RankLimits> = RANK_LIMITS,
): StandardRank | null {
  return RANKS.slice(RANKS.indexOf(from)).find((r) => table[r].export_formats.includes(format)) ?? null;
}

/**
 * The formats an account cannot export, each with the plan to move up to. Enterprise and
 * customised accounts have their own terms: no standard plan is named for them (rank null).
 */
export function lockedFormats(
  name: string | null | undefined,
  allowed: readonly string[],
  table: Record<StandardRank, RankLimits> = RANK_LIMITS,
): LockedFormat[] {
  const std = usesCustomLimits(name) ? null : standardRank(name);
  const missing = EXPORT_FORMATS.filter((f) => !allowed.includes(f));
  if (!std) return missing.map((format) => ({ format, rank: null }));
  // A format no plan above this one offers is not shown as something to buy.
  return missing.flatMap((format) => {
    const rank = cheapestRankWith(format, std, table);
    return rank ? [{ format, rank }] : [];
  });
}

/** The cheapest rank at or above `from` with more than `seats` seats (null: none to buy). */
export function cheapestRankWithSeats(
  seats: number,
  from: StandardRank = 'Free',
  table: Record<StandardRank, RankLimits> = RANK_LIMITS,
): StandardRank | null {
  return RANKS.slice(RANKS.indexOf(from)).find((r) => r !== 'Enterprise' && table[r].seats > seats) ?? null;
}
