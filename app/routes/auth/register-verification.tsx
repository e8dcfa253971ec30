import { useEffect, useRef, useState } from 'react';
import { Link, useActionData, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/register-verification';
import { pageMeta } from '../../lib/meta';
import { useLocalePath } from '../../lib/use-locale';
import { useApiForm } from '../../lib/use-api-form';
import { api } from '../../lib/api';
import { verifyCodeSchema } from '../../../common/auth-schemas';
import { EmailField, Field, SubmitButton } from '../../components/form/field';
import { ApiForm } from '../../components/form/api-form';
import { FormAlert } from '../../components/form/form-alert';
import { writeUserState, type UserPayload } from '../../lib/user-state';
import { ApiClientError } from '../../lib/api-client';
import { postedFailure, postedForm, redirectWithCookies } from '../../lib/form-action';
import { localeParam, localizePath } from '../../../common/locales';

/** The code posted before hydration: verify on the server (which logs in). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const answer = await postedForm(request, context, '/common-api/v1/complete-signup');
  if (answer.envelope.code !== 200) return postedFailure(answer);
  return redirectWithCookies(localizePath('/dashboard', localeParam(params.lang)), answer);
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'auth.verification.title', { noindex: true });

export default function RegisterVerification() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const [notice, setNotice] = useState<string | null>(null);
  const linkToken = params.get('token');
  const form = useApiForm<typeof verifyCodeSchema, UserPayload>({
    posted: useActionData<typeof action>(),
    schema: verifyCodeSchema,
    path: '/common-api/v1/complete-signup',
    onSuccess: (payload) => {
      writeUserState(payload);
      return navigate(lp('/dashboard'), { replace: true });
    },
  });
  const [verifying, setVerifying] = useState(!!linkToken);
  const started = useRef(false);
  // Following the mail's link verifies at once; the code form stays as the fallback.
  useEffect(() => {
    if (!linkToken || started.current) return;
    started.current = true;
    api
      .post<UserPayload>('/common-api/v1/complete-signup', { token: linkToken }, { handleErrors: true })
      .then((payload) => {
        writeUserState(payload);
        return navigate(lp('/dashboard'), { replace: true });
      })
      .catch((err: unknown) => {
        setVerifying(false);
        form.setFormError(err instanceof ApiClientError ? err.message : String(err));
      });
  }, [linkToken, lp, navigate, form]);
  const resend = async () => {
    try {
      const data = await api.post<{ message?: string }>(
        '/common-api/v1/resend-activate-email',
        { email },
        { handleErrors: true },
      );
      setNotice(data?.message ? t(data.message) : t('auth.verification.resent'));
    } catch (err) {
      form.setFormError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t('auth.verification.heading')}</h1>
      <p className="mt-1 text-sm text-slate-600">
        {email ? t('auth.verification.subtitle', { email }) : t('auth.verification.subtitleNoEmail')}
      </p>
      <p className="mt-2 text-xs text-slate-500">{t('auth.verification.mailNote')}</p>
      {verifying ? <FormAlert message={t('auth.verification.verifying')} tone="info" /> : null}
      <ApiForm form={form} className="mt-6 space-y-4">
        <FormAlert message={notice} tone="info" />
        {email ? (
          <input type="hidden" name="email" value={email} />
        ) : (
          <EmailField defaultValue={form.kept.email} error={form.errors.email} />
        )}
        <Field
          label={t('auth.verification.code')}
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          className="tracking-[0.5em]"
          error={form.errors.code}
        />
        <SubmitButton pending={form.pending}>{t('auth.verification.submit')}</SubmitButton>
      </ApiForm>
      <div className="mt-6 flex items-center justify-between text-sm">
        <button
          type="button"
          onClick={() => void resend()}
          disabled={!email}
          className="font-medium text-brand-700 hover:text-brand-900 disabled:text-slate-400"
        >
          {t('auth.verification.resend')}
        </button>
        <Link to={lp('/login')} className="text-slate-600 hover:text-slate-900">
          {t('auth.verification.back')}
        </Link>
      </div>
    </>
  );
}
