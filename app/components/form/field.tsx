import { useId, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { PASSWORD_MIN } from '../../../common/auth-schemas';

type FieldProps = InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string; hint?: string };

export function Field({ label, error, hint, className, ...input }: FieldProps) {
  const { t } = useTranslation();
  const id = useId();
  const described = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={`mt-1.5 block w-full rounded-lg border px-3 py-2.5 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 ${
          error
            ? 'border-red-400 focus:ring-red-300'
            : 'border-slate-300 focus:border-brand-500 focus:ring-brand-200'
        } ${className ?? ''}`}
        {...input}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1.5 text-sm text-red-600" data-testid={`error-${input.name}`}>
          {t(error)}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1.5 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The account forms' e-mail input (named `email` unless told). */
export function EmailField(props: Omit<FieldProps, 'label'> & { label?: string }) {
  const { t } = useTranslation();
  return <Field label={t('auth.email')} name="email" type="email" autoComplete="email" {...props} />;
}

/**
 * A password input. A new one (sign-up, reset, profile) states the rule and asks for the
 * schema's PASSWORD_MIN characters; otherwise it is the current password.
 */
export function PasswordField({
  isNew = false,
  ...props
}: Omit<FieldProps, 'label'> & { label?: string; isNew?: boolean }) {
  const { t } = useTranslation();
  const rule = isNew
    ? { autoComplete: 'new-password', hint: t('auth.passwordRule'), minLength: PASSWORD_MIN }
    : { autoComplete: 'current-password' };
  return <Field label={t('auth.password')} name="password" type="password" {...rule} {...props} />;
}

export function SubmitButton({ pending, children }: { pending: boolean; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <button
      type="submit"
      disabled={pending}
      aria-busy={pending}
      className="flex w-full items-center justify-center gap-2 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:cursor-wait disabled:opacity-70"
    >
      {pending ? (
        <span
          className="h-4 w-4 animate-spin rounded-full border-2 border-white/40 border-t-white"
          aria-hidden
        />
      ) : null}
      {pending ? t('common.loading') : children}
    </button>
  );
}

/** Hidden from people, tempting to bots: a filled honeypot marks the submission as spam. */
export function Honeypot() {
  return (
    <div aria-hidden className="absolute -left-[9999px] h-0 w-0 overflow-hidden">
      <label>
        Website
        <input type="text" name="website" tabIndex={-1} autoComplete="off" />
      </label>
    </div>
  );
}
