import type { ContentfulStatusCode } from 'hono/utils/http-status';

// One response shape everywhere: { code, message, data }; code 200 is success (spec §8).
// Error codes are stable numbers; `message` is an i18n key the client translates
// (the English text is sent alongside as `data.detail` only for logs and API users).
export const ErrorCode = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode] | number;

export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCodeValue,
    /** i18n key, e.g. 'errors.api.notFound' */
    readonly messageKey: string,
    readonly httpStatus: ContentfulStatusCode = httpStatusFor(code),
    readonly data: unknown = null,
  ) {
    super(messageKey);
  }
}

/** Business codes (5 digits) map onto the HTTP status of their family. */
export function httpStatusFor(code: number): ContentfulStatusCode {
  if (code >= 400 && code < 600) return code as ContentfulStatusCode;
  if (code >= 10000) {
    const family = Math.floor(code / 100) % 1000;
    if (family >= 400 && family < 600) return family as ContentfulStatusCode;
  }
  return 400;
}

export function ok<T>(data: T, message = 'ok'): Envelope<T> {
  return { code: 200, message, data };
}

export function fail(code: number, message: string, data: unknown = null): Envelope {
  return { code, message, data };
}
