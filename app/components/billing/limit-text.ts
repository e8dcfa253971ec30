import type { TFunction } from 'i18next';
import { RANK_LIMITS, type RankLimits, type StandardRank } from '../../../common/ranks';

/** How one limit of a rank reads on /pricing, in the page's language; Enterprise's are set per customer. */
export function limitText(
  t: TFunction,
  key: keyof RankLimits,
  rank: StandardRank,
  /** Numbers in the page's language ('2,400' · '2.400'), the same on the server and in the browser. */
  num: (n: number) => string,
): string {
  if (rank === 'Enterprise') return t('pages.pricing.custom');
  const limits = RANK_LIMITS[rank];
  const unlimited = t('pages.pricing.values.unlimited');
  switch (key) {
    case 'minutes_per_month':
      return limits.minutes_per_month === null
        ? unlimited
        : t('pages.pricing.values.minutes', { n: num(limits.minutes_per_month) });
    case 'max_file_mb':
      return limits.max_file_mb >= 1024
        ? t('pages.pricing.values.gb', { n: Math.round(limits.max_file_mb / 1024) })
        : t('pages.pricing.values.mb', { n: limits.max_file_mb });
    case 'max_duration_minutes':
      return limits.max_duration_minutes >= 60
        ? t('pages.pricing.values.hours', { n: limits.max_duration_minutes / 60 })
        : t('pages.pricing.values.minutes', { n: limits.max_duration_minutes });
    case 'concurrent_jobs':
      return t('pages.pricing.values.jobs', { n: limits.concurrent_jobs });
    case 'share_links':
      return limits.share_links === null ? unlimited : String(limits.share_links);
    case 'retention_days':
      return limits.retention_days === null
        ? t('pages.pricing.values.keepForever')
        : t('pages.pricing.values.days', { n: limits.retention_days });
    case 'api_requests_per_minute':
      return t('pages.pricing.values.perMinute', { n: limits.api_requests_per_minute });
    case 'seats':
      return t('pages.pricing.values.seats', { count: limits.seats });
    case 'render_minutes_per_month':
      return limits.render_minutes_per_month === null
        ? unlimited
        : t('pages.pricing.values.minutes', { n: num(limits.render_minutes_per_month) });
    case 'render_max_resolution':
    case 'render_watermark':
      return t(
        limits.render_watermark ? 'pages.pricing.values.resolutionMarked' : 'pages.pricing.values.resolution',
        {
          n: limits.render_max_resolution,
        },
      );
    case 'translation_chars_per_month':
      return limits.translation_chars_per_month === null
        ? unlimited
        : t('pages.pricing.values.chars', { n: num(limits.translation_chars_per_month) });
    case 'export_formats':
      return limits.export_formats.map((f) => f.toUpperCase()).join(', ');
  }
}
