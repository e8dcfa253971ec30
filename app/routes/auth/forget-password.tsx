import { Link, useActionData, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/forget-password';
import { pageMeta } from '../../lib/meta';
import { useLocalePath } from '../../lib/use-locale';
import { useApiForm } from '../../lib/use-api-form';
import { forgotSchema } from '../../../common/auth-schemas';
import { EmailField, Honeypot, SubmitButton } from '../../components/form/field';
import { ApiForm } from '../../components/form/api-form';
import { postedFailure, postedForm, redirectWithCookies } from '../../lib/form-action';
import { localeParam, localizePath } from '../../../common/locales';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'auth.forget.title');

/** The form posted before hydration: ask for the mail on the server, then say it is sent. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const answer = await postedForm(request, context, '/common-api/v1/forgot-password');
  if (answer.envelope.code !== 200) return postedFailure(answer);
  return redirectWithCookies(localizePath('/forgetPassword/sent', localeParam(params.lang)), answer);
}

export default function ForgetPassword() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const form = useApiForm({
    posted: useActionData<typeof action>(),
    schema: forgotSchema,
    path: '/common-api/v1/forgot-password',
    onSuccess: () => navigate(lp('/forgetPassword/sent')),
  });
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t('auth.forget.heading')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('auth.forget.subtitle')}</p>
      <ApiForm form={form}>
        <EmailField defaultValue={form.kept.email} error={form.errors.email} required />
        <Honeypot />
        <SubmitButton pending={form.pending}>{t('auth.forget.submit')}</SubmitButton>
      </ApiForm>
      <p className="mt-6 text-center text-sm">
        <Link to={lp('/login')} className="text-slate-600 hover:text-slate-900">
          {t('auth.forget.back')}
        </Link>
      </p>
    </>
  );
}
