import { Link, useActionData, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/reset-password';
import { pageMeta } from '../../lib/meta';
import { useLocalePath } from '../../lib/use-locale';
import { useApiForm } from '../../lib/use-api-form';
import { resetSchema } from '../../../common/auth-schemas';
import { PasswordField, SubmitButton } from '../../components/form/field';
import { ApiForm } from '../../components/form/api-form';
import { FormAlert } from '../../components/form/form-alert';
import { writeUserState, type UserPayload } from '../../lib/user-state';
import { postedFailure, postedForm, redirectWithCookies } from '../../lib/form-action';
import { localeParam, localizePath } from '../../../common/locales';

/** The form posted before hydration: set the password on the server (which logs in). */
export async function action({ request, context, params }: Route.ActionArgs) {
  const answer = await postedForm(request, context, '/common-api/v1/reset-password');
  if (answer.envelope.code !== 200) return postedFailure(answer);
  return redirectWithCookies(localizePath('/dashboard', localeParam(params.lang)), answer);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'auth.reset.title', { noindex: true });

export default function ResetPassword() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const form = useApiForm<typeof resetSchema, UserPayload>({
    posted: useActionData<typeof action>(),
    schema: resetSchema,
    path: '/common-api/v1/reset-password',
    onSuccess: (payload) => {
      writeUserState(payload);
      return navigate(lp('/dashboard'), { replace: true });
    },
  });
  if (!token) {
    return (
      <>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t('auth.reset.heading')}</h1>
        <FormAlert message={t('auth.reset.missingToken')} />
        <Link to={lp('/forgetPassword')} className="mt-4 inline-block text-sm font-semibold text-brand-700">
          {t('auth.reset.requestNew')}
        </Link>
      </>
    );
  }
  return (
    <>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t('auth.reset.heading')}</h1>
      <p className="mt-1 text-sm text-slate-600">{t('auth.reset.subtitle')}</p>
      <ApiForm form={form} className="mt-6 space-y-4">
        <input type="hidden" name="token" value={token} />
        <PasswordField isNew label={t('auth.reset.newPassword')} error={form.errors.password} required />
        <label className="flex items-start gap-2 text-sm text-slate-700">
          <input type="checkbox" name="revoke_api_keys" className="mt-0.5" />
          {t('auth.reset.revokeKeys')}
        </label>
        <SubmitButton pending={form.pending}>{t('auth.reset.submit')}</SubmitButton>
      </ApiForm>
    </>
  );
}
