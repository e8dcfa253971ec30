import { useState } from 'react';
import { fieldKeysOf } from '../../common/envelope';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Route } from './+types/profile';
import { pageMeta } from '../lib/meta';
import { PageFrame } from '../components/layout/page-frame';
import { useLocale, useLocalePath } from '../lib/use-locale';
import { api } from '../lib/api';
import { ApiClientError } from '../lib/api-client';
import { clearUserState, useUserState, writeUserState, type UserPayload } from '../lib/user-state';
import { localizePath, isLocale } from '../../common/locales';
import { Field, PasswordField, SubmitButton } from '../components/form/field';
import { FormAlert } from '../components/form/form-alert';
import { BillingPanel } from '../components/billing/billing-panel';
import { ApiKeysCard } from '../components/developer/api-keys-card';
import { WebhooksCard } from '../components/developer/webhooks-card';
import { limitsFor } from '../../common/ranks';
import { LocaleOptions } from '../components/layout/language-switcher';
import { reloadAction } from '../lib/form-action';
import { useFormat } from '../lib/use-format';
import { standardRank } from '../../common/ranks';

// Its forms need the page's scripts; one posted before they ran just reloads the page.
export const action = reloadAction;

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.profile.title', { noindex: true });

function Card({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6">
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

/** Sends one profile change; field errors come back keyed by input name. */
function useProfileAction() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  async function run(body: Record<string, unknown>): Promise<{ ok: boolean; data: UserPayload | null }> {
    setPending(true);
    setError(null);
    setFields({});
    try {
      return {
        ok: true,
        data: await api.put<UserPayload | null>('/common-api/v1/user', body, { handleErrors: true }),
      };
    } catch (err) {
      if (err instanceof ApiClientError) {
        setError(err.message);
        setFields(fieldKeysOf(err.data) ?? {});
      }
      return { ok: false, data: null };
    } finally {
      setPending(false);
    }
  }
  return { pending, error, fields, run };
}

export default function Profile() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const lp = useLocalePath();
  const currentLang = useLocale();
  const state = useUserState();
  const user = state.userinfo;
  const quota = state.permissions_quota;
  const details = useProfileAction();
  const password = useProfileAction();
  const removal = useProfileAction();

  if (!user || !quota) {
    return (
      <PageFrame heading={t('pages.profile.heading')} width="max-w-3xl" subtitle={t('common.loading')} />
    );
  }
  const total = quota.minutes_per_month;
  const percent = total ? Math.min(100, Math.round((quota.minutes_used / total) * 100)) : 0;

  return (
    <PageFrame heading={t('pages.profile.heading')} width="max-w-3xl">
      <div className="space-y-6">
        <Card title={t('pages.profile.plan')}>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <p className="text-lg font-semibold text-slate-900" data-testid="profile-rank">
                {standardRank(user.rank_name) ? t(`ranks.${standardRank(user.rank_name)}`) : user.rank_name}
              </p>
              <p className="mt-1 text-sm text-slate-600">
                {total === null
                  ? t('pages.profile.unlimited')
                  : t('pages.profile.minutesUsed', {
                      used: fmt.minutes(quota.minutes_used),
                      total: fmt.number(total),
                    })}
              </p>
            </div>
            <Link
              to={lp('/pricing')}
              className="rounded-lg border border-slate-300 px-3.5 py-2 text-sm font-semibold text-slate-800 hover:border-slate-400"
            >
              {t('pages.profile.upgrade')}
            </Link>
          </div>
          {total !== null ? (
            <div
              className="mt-4 h-2 overflow-hidden rounded-full bg-slate-100"
              role="progressbar"
              aria-valuenow={percent}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-label={t('pages.profile.usage')}
            >
              <div className="h-2 rounded-full bg-brand-600" style={{ width: `${percent}%` }} />
            </div>
          ) : null}
          <BillingPanel />
        </Card>

        <Card title={t('pages.profile.details')}>
          <form
            method="post"
            className="space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              const data = new FormData(e.currentTarget);
              const language = String(data.get('language'));
              void details
                .run({ name: String(data.get('name') ?? ''), language })
                .then(({ data: payload }) => {
                  if (!payload) return;
                  writeUserState(payload);
                  toast.success(t('pages.profile.saved'));
                  if (isLocale(language) && language !== currentLang) {
                    document.cookie = `i18n_redirected=${language}; Max-Age=31536000; Path=/; SameSite=Lax`;
                    window.location.assign(localizePath('/profile', language));
                  }
                });
            }}
          >
            <FormAlert message={details.error} />
            <dl className="grid gap-1 text-sm sm:grid-cols-3">
              <dt className="text-slate-500">{t('pages.profile.email')}</dt>
              <dd className="break-all text-slate-900 sm:col-span-2">{user.email}</dd>
              <dt className="text-slate-500">{t('pages.profile.google')}</dt>
              <dd className="text-slate-900 sm:col-span-2">
                {user.google_linked ? t('pages.profile.googleLinked') : t('pages.profile.googleNotLinked')}
              </dd>
              <dt className="text-slate-500">{t('pages.profile.memberSince')}</dt>
              <dd className="text-slate-900 sm:col-span-2">{fmt.isoDate(user.created_at)}</dd>
            </dl>
            <Field
              label={t('pages.profile.name')}
              name="name"
              defaultValue={user.name ?? ''}
              maxLength={80}
              error={details.fields.name}
            />
            <label className="block text-sm font-medium text-slate-700">
              {t('pages.profile.language')}
              <select
                name="language"
                defaultValue={user.language}
                className="mt-1.5 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-sm"
              >
                <LocaleOptions />
              </select>
            </label>
            <div className="sm:w-48">
              <SubmitButton pending={details.pending}>{t('common.save')}</SubmitButton>
            </div>
          </form>
        </Card>

        <Card title={t('pages.profile.passwordTitle')}>
          <form
            method="post"
            className="space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const data = new FormData(form);
              void password
                .run({
                  current_password: String(data.get('current_password') ?? ''),
                  new_password: String(data.get('new_password') ?? ''),
                  revoke_api_keys: data.get('revoke_api_keys') === 'on',
                })
                .then(({ ok }) => {
                  if (!ok) return;
                  form.reset();
                  toast.success(t('pages.profile.passwordChanged'));
                });
            }}
          >
            <FormAlert message={password.error} />
            {user.has_password ? (
              <PasswordField
                label={t('pages.profile.currentPassword')}
                name="current_password"
                error={password.fields.current_password}
              />
            ) : null}
            <PasswordField
              isNew
              label={t('pages.profile.newPassword')}
              name="new_password"
              error={password.fields.new_password}
            />
            <label className="flex items-start gap-2 text-sm text-slate-700">
              <input type="checkbox" name="revoke_api_keys" className="mt-0.5" />
              {t('pages.profile.revokeKeys')}
            </label>
            <div className="sm:w-48">
              <SubmitButton pending={password.pending}>{t('pages.profile.changePassword')}</SubmitButton>
            </div>
          </form>
        </Card>

        <Card title={t('developer.keys.title')}>
          <ApiKeysCard
            perMinute={quota.api_requests_per_minute ?? limitsFor(user.rank_name).api_requests_per_minute}
          />
        </Card>

        <Card title={t('developer.webhooks.title')}>
          <WebhooksCard />
        </Card>

        <section className="rounded-xl border border-red-200 bg-red-50/40 p-5 sm:p-6">
          <h2 className="text-base font-semibold text-red-800">{t('pages.profile.deleteTitle')}</h2>
          <p className="mt-1 text-sm text-red-700">{t('pages.profile.deleteText')}</p>
          <form
            method="post"
            className="mt-4 space-y-4"
            onSubmit={(e) => {
              e.preventDefault();
              const data = new FormData(e.currentTarget);
              void removal
                .run({
                  delete: true,
                  password: String(data.get('password') ?? ''),
                  confirm_email: String(data.get('confirm_email') ?? ''),
                })
                .then(({ ok }) => {
                  if (!ok) return;
                  clearUserState();
                  window.location.assign(lp('/'));
                });
            }}
          >
            <FormAlert message={removal.error} />
            {user.has_password ? (
              <PasswordField label={t('pages.profile.deleteConfirmPassword')} />
            ) : (
              <Field label={t('pages.profile.deleteConfirmEmail')} name="confirm_email" type="email" />
            )}
            <button
              type="submit"
              disabled={removal.pending}
              className="rounded-lg bg-red-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-60"
            >
              {t('pages.profile.deleteButton')}
            </button>
          </form>
        </section>
      </div>
    </PageFrame>
  );
}
