import { Link, useActionData, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/login';
import { pageMeta } from '../../lib/meta';
import { useLocalePath } from '../../lib/use-locale';
import { useApiForm } from '../../lib/use-api-form';
import { loginSchema } from '../../../common/auth-schemas';
import { safeFromPath } from '../../../common/guard';
import { AuthCode } from '../../../common/error-codes';
import { EmailField, Honeypot, PasswordField, SubmitButton } from '../../components/form/field';
import { ApiForm } from '../../components/form/api-form';
import { GoogleButton } from '../../components/form/google-button';
import { writeUserState, type UserPayload } from '../../lib/user-state';
import { postedFailure, postedForm, redirectWithCookies } from '../../lib/form-action';
import { localeParam, localizePath } from '../../../common/locales';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'auth.login.title');

/** The form posted before hydration: log in on the server, then go where the page would. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const answer = await postedForm(request, context, '/common-api/v1/login');
  if (answer.envelope.code !== 200) return postedFailure(answer);
  const from = safeFromPath(new URL(request.url).searchParams.get('from'));
  return redirectWithCookies(from ?? localizePath('/dashboard', localeParam(params.lang)), answer);
}

export default function Login() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const from = safeFromPath(params.get('from'));
  const done = () => navigate(from ?? lp('/dashboard'), { replace: true });
  const form = useApiForm<typeof loginSchema, UserPayload>({
    posted: useActionData<typeof action>(),
    schema: loginSchema,
    path: '/common-api/v1/login',
    onSuccess: (payload) => {
      writeUserState(payload);
      return done();
    },
  });
  const unverifiedEmail =
    form.errorCode !== AuthCode.UNVERIFIED
      ? ''
      : typeof document === 'undefined'
        ? (form.kept.email ?? '')
        : (document.querySelector<HTMLInputElement>('input[name=email]')?.value ?? '');
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t('auth.login.heading')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('auth.login.subtitle')}</p>
      <ApiForm form={form}>
        {form.errorCode === AuthCode.UNVERIFIED ? (
          <Link
            to={`${lp('/register/verification')}?email=${encodeURIComponent(unverifiedEmail.trim().toLowerCase())}`}
            className="block text-sm font-semibold text-brand-700 hover:text-brand-900"
            data-testid="resend-link"
          >
            {t('auth.login.resendLink')}
          </Link>
        ) : null}
        <EmailField
          placeholder={t('auth.emailPlaceholder')}
          defaultValue={form.kept.email}
          error={form.errors.email}
          required
        />
        <PasswordField error={form.errors.password} required />
        <div className="flex justify-end">
          <Link
            to={lp('/forgetPassword')}
            className="text-sm font-medium text-brand-700 hover:text-brand-900"
          >
            {t('auth.login.forgot')}
          </Link>
        </div>
        <Honeypot />
        <SubmitButton pending={form.pending}>{t('auth.login.submit')}</SubmitButton>
      </ApiForm>
      <GoogleButton onSuccess={() => void done()} />
      <p className="mt-6 text-center text-sm text-slate-600">
        {t('auth.login.noAccount')}{' '}
        <Link
          to={lp('/register') + (from ? `?from=${encodeURIComponent(from)}` : '')}
          className="font-semibold text-brand-700 hover:text-brand-900"
        >
          {t('auth.login.register')}
        </Link>
      </p>
    </>
  );
}
