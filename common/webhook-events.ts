// The events a webhook endpoint can subscribe to (docs/decisions/0018-api-keys-webhooks.md).
export const WEBHOOK_EVENTS = [
  'transcript.completed',
  'transcript.failed',
  'transcript.deleted',
  /** A transcript's summary was made (docs/decisions/0033-insights.md). */
  'summary.completed',
  'member.added',
  'comment.created',
  'translation.completed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What "send test event" delivers; not subscribable, never retried. */
export const TEST_EVENT = 'webhook.test';
