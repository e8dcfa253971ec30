/**
 * A refusal a module throws: a code from common/error-codes.ts (its first three digits are the
 * HTTP status, which the edge derives with httpStatusOf), an i18n message key and optional data
 * for the message's placeholders. Modules know nothing of HTTP; server/app.ts and the tus server
 * turn it into a response.
 */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    /** i18n key, e.g. 'errors.api.notFound' */
    readonly messageKey: string,
    readonly data: unknown = null,
  ) {
    super(messageKey);
  }
}
