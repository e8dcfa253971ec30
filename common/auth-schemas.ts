import { z } from 'zod';
import { textField } from './text';

// One schema per form, used by the page (field messages) and by the API (same rules).
// Messages are i18n keys.
export const PASSWORD_MIN = 6;

export const emailField = z
  .string()
  .trim()
  .toLowerCase()
  .min(1, 'validation.required')
  .max(254, 'validation.email')
  .email('validation.email');
/** A password being chosen (sign-up, reset, profile); a current one only needs to be there. */
export const newPasswordField = z
  .string()
  .min(PASSWORD_MIN, 'validation.passwordMin')
  .max(256, 'validation.passwordMax');
/** The single-use token of a mailed link. */
export const mailTokenField = z.string().min(10).max(200);
/** The six-digit code of the activation mail. */
export const mailCodeField = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'validation.code');

export const loginSchema = z.object({
  email: emailField,
  password: z.string().min(1, 'validation.required').max(256),
});
export const signupSchema = z.object({
  email: emailField,
  password: newPasswordField,
  name: textField({ max: 80, maxMessage: 'validation.nameMax' }).optional(),
});
export const forgotSchema = z.object({ email: emailField });
/**
 * "Also revoke all my API keys" beside a new password: a JSON boolean, or a form checkbox's `on`
 * (the reset form posts before hydration too). Keys otherwise survive a password change.
 */
export const revokeApiKeysField = z
  .union([z.boolean(), z.literal('on')])
  .optional()
  .transform((v) => v === true || v === 'on');
export const resetSchema = z.object({
  token: mailTokenField,
  password: newPasswordField,
  revoke_api_keys: revokeApiKeysField,
});
export const verifyCodeSchema = z.object({ email: emailField, code: mailCodeField });
/** Activation: the mailed link's token, or the address with the mailed code. */
export const completeSignupSchema = z.union([z.object({ token: mailTokenField }), verifyCodeSchema]);

export type LoginInput = z.infer<typeof loginSchema>;
export type SignupInput = z.infer<typeof signupSchema>;

/** First message per field, for showing beside the inputs (the API's 422 `fields` too). */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    out[key] ??= issue.message;
  }
  return out;
}
