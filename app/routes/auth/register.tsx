import { Link, useActionData, useNavigate, useSearchParams } from 'react-router';
import { Trans, useTranslation } from 'react-i18next';
import type { Route } from './+types/register';
import { pageMeta } from '../../lib/meta';
import { useLocalePath } from '../../lib/use-locale';
import { useApiForm } from '../../lib/use-api-form';
import { signupSchema } from '../../../common/auth-schemas';
import { EmailField, Field, Honeypot, PasswordField, SubmitButton } from '../../components/form/field';
import { ApiForm } from '../../components/form/api-form';
import { GoogleButton } from '../../components/form/google-button';
import { postedFailure, postedForm, redirectWithCookies } from '../../lib/form-action';
import { localeParam, localizePath } from '../../../common/locales';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'auth.register.title');

/** The form posted before hydration: sign up on the server, then ask for the code. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const answer = await postedForm(request, context, '/common-api/v1/signup');
  if (answer.envelope.code !== 200) return postedFailure(answer);
  const next = localizePath('/register/verification', localeParam(params.lang));
  return redirectWithCookies(`${next}?email=${encodeURIComponent(answer.sent.email ?? '')}`, answer);
}

export default function Register() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  // An invitation to an address without an account links here with the address filled in.
  const [search] = useSearchParams();
  const form = useApiForm({
    posted: useActionData<typeof action>(),
    schema: signupSchema,
    path: '/common-api/v1/signup',
    onSuccess: (_data, input) =>
      navigate(`${lp('/register/verification')}?email=${encodeURIComponent(input.email)}`),
  });
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t('auth.register.heading')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('auth.register.subtitle')}</p>
      <ApiForm form={form}>
        <Field
          label={`${t('auth.name')} (${t('auth.optional')})`}
          name="name"
          autoComplete="name"
          defaultValue={form.kept.name}
          error={form.errors.name}
        />
        <EmailField
          placeholder={t('auth.emailPlaceholder')}
          defaultValue={form.kept.email ?? search.get('email') ?? undefined}
          error={form.errors.email}
          required
        />
        <PasswordField isNew error={form.errors.password} required />
        <Honeypot />
        <SubmitButton pending={form.pending}>{t('auth.register.submit')}</SubmitButton>
        <p className="text-xs leading-relaxed text-slate-500">
          <Trans
            i18nKey="auth.register.agree"
            components={{
              terms: <Link to={lp('/terms')} className="underline hover:text-slate-700" />,
              privacy: <Link to={lp('/privacy-policy')} className="underline hover:text-slate-700" />,
            }}
          />
        </p>
      </ApiForm>
      <GoogleButton onSuccess={() => void navigate(lp('/dashboard'), { replace: true })} />
      <p className="mt-6 text-center text-sm text-slate-600">
        {t('auth.register.hasAccount')}{' '}
        <Link to={lp('/login')} className="font-semibold text-brand-700 hover:text-brand-900">
          {t('auth.register.login')}
        </Link>
      </p>
    </>
  );
}
