import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// Standard Webhooks (https://www.standardwebhooks.com): the signed content is
// `${webhook-id}.${webhook-timestamp}.${body}`, HMAC-SHA256 with the secret's base64-decoded
// bytes, sent as `v1,<base64>` in webhook-signature (space-separated when there are several).

const PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return PREFIX + randomBytes(32).toString('base64');
}

export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url')}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one delivery attempt; one `v1,` signature per secret (rotation overlap). */
export function webhookHeaders(secrets: readonly string[], id: string, timestamp: number, body: string) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((secret) => signWebhook(secret, id, timestamp, body)).join(' '),
  };
}

/**
 * What a receiver does (the README's example and the tests use it): one of the signatures must
 * match, and the timestamp must be within `toleranceSec` of now, so an old message cannot be
 * replayed.
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSec = Math.floor(Date.now() / 1000),
  toleranceSec = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts) || Math.abs(nowSec - ts) > toleranceSec) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, ts, body).slice(3), 'base64');
  return headers.signature.split(' ').some((part) => {
    const [version, sig] = part.split(',');
    if (version !== 'v1' || !sig) return false;
    const got = Buffer.from(sig, 'base64');
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
