import type { Context } from 'hono';
import type { z } from 'zod';
import { fieldErrors } from '../../common/auth-schemas';
import { ErrorCode } from '../../common/error-codes';
import { ApiError } from '../modules/errors';
import { firstInputProblem } from '../../common/text';

/** Reads and validates a JSON (or form) body; bad JSON → 400, schema failure → 422 with field errors. */
export async function readBody<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  const type = c.req.header('content-type') ?? '';
  try {
    if (type.includes('application/x-www-form-urlencoded') || type.includes('multipart/form-data')) {
      raw = Object.fromEntries((await c.req.formData()).entries());
    } else {
      const text = await c.req.text();
      raw = text.length ? JSON.parse(text) : {};
    }
  } catch {
    throw new ApiError(ErrorCode.BAD_REQUEST, 'errors.api.badJson');
  }
  return parseWith(schema, raw);
}

export function readQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

function parseWith<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  // Whatever the schema: no text anywhere may carry NUL or other control characters (PostgreSQL
  // refuses NUL; the rest is never meant), and nothing nests deeper than a form of ours could.
  // Fields say it themselves through common/text.ts.
  const bad = firstInputProblem(raw);
  if (bad !== null) {
    throw new ApiError(ErrorCode.VALIDATION, 'errors.api.validation', {
      fields: { [bad.path]: bad.message },
    });
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ApiError(ErrorCode.VALIDATION, 'errors.api.validation', {
    fields: fieldErrors(parsed.error),
  });
}
