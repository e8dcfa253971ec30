import type { TFunction } from 'i18next';

// Why a webhook delivery failed, as the server records it (server/modules/outbound: OutboundFailure).
const OUTCOMES = new Set([
  'dns',
  'refused',
  'unreachable',
  'reset',
  'tls',
  'timeout',
  'too_large',
  'too_many_redirects',
  'blocked_address',
  'bad_url',
  'endpoint_disabled',
]);

/**
 * What happened to a delivery, in words: the HTTP status the receiver answered (`short`: just
 * "HTTP 503"), or why no answer came (name not found, refused, timeout, TLS …).
 */
export function outcomeText(
  t: TFunction,
  d: { response_status: number | null; error: string | null },
  short = false,
): string {
  if (d.response_status !== null)
    return t(short ? 'developer.webhooks.outcome.code' : 'developer.webhooks.outcome.status', {
      status: d.response_status,
    });
  if (!d.error) return '';
  return t(`developer.webhooks.outcome.${OUTCOMES.has(d.error) ? d.error : 'network'}`);
}
