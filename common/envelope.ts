// One response shape everywhere: { code, message, data }; code 200 is success. Error codes come
// from common/error-codes.ts. An error also carries `message_key`, the stable i18n key the app
// translates itself; its `message` leaves the server as a readable sentence in the caller's
// language (server/http/readable-errors.ts, docs/product.md#the-api).

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  /** Errors only: the message's i18n key (`errors.exports.formatNotInPlan`). */
  message_key?: string;
  data: T;
}

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { code: 200, message, data };
}

/** An error answer; `messageKey` is also its message until the edge writes the sentence. */
export function fail(code: number, messageKey: string, data: unknown = null): Envelope {
  return { code, message: messageKey, message_key: messageKey, data };
}

/** The i18n key of an answer's message: `message_key`, or `message` from an older server. */
export function messageKeyOf(envelope: { message?: string; message_key?: string }): string | undefined {
  return envelope.message_key ?? envelope.message;
}

/**
 * The i18n keys of an answer's field errors: `data.field_keys` (beside the sentences the server
 * writes in `data.fields`), or `data.fields` from an older server or a check made in the app.
 */
export function fieldKeysOf(data: unknown): Record<string, string> | undefined {
  if (!data || typeof data !== 'object') return undefined;
  const d = data as { fields?: unknown; field_keys?: unknown };
  const keys = d.field_keys ?? d.fields;
  return keys && typeof keys === 'object' && !Array.isArray(keys)
    ? (keys as Record<string, string>)
    : undefined;
}
