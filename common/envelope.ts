// One response shape everywhere: { code, message, data }; code 200 is success. Error codes come
// from common/error-codes.ts; `message` is an i18n key the client translates.

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { code: 200, message, data };
}

export function fail(code: number, message: string, data: unknown = null): Envelope {
  return { code, message, data };
}
