import { z } from 'zod';
import { emailField } from './auth-schemas';
import { textField } from './text';

// Forms of the affiliate pages, shared by the pages (field messages) and the API. Messages are i18n keys.
const optionalText = (max: number, multiline = false) =>
  textField({ max, multiline })
    .optional()
    .transform((v) => v || null);

export const AFFILIATE_CHANNELS = [
  'website',
  'youtube',
  'social',
  'newsletter',
  'community',
  'other',
] as const;

export const affiliateCodeField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{4,16}$/, 'errors.affiliate.badCode');

export const applySchema = z.object({
  // A checkbox posts 'on'; API clients send true.
  accept_terms: z.preprocess(
    (v) => v === true || v === 'on' || v === 'true',
    z.literal(true, { message: 'errors.affiliate.termsRequired' }),
  ),
  website: z
    .string()
    .trim()
    .max(300, 'validation.tooLong')
    .refine((v) => v === '' || /^https?:\/\/[^\s]+\.[^\s]+$/i.test(v), 'validation.url')
    .optional()
    .transform((v) => v || null),
  audience: optionalText(500, true),
  channel: z.enum(AFFILIATE_CHANNELS).optional(),
  code: affiliateCodeField.optional().or(z.literal('').transform(() => undefined)),
});

export const payoutAccountSchema = z.object({
  payment_type: z.literal('paypal').default('paypal'),
  paypal_email: emailField,
});

export const newCodeSchema = z.object({
  code: affiliateCodeField.optional().or(z.literal('').transform(() => undefined)),
  label: optionalText(60),
});
