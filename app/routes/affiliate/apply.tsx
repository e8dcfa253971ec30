import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/apply';
import { pageMeta } from '../../lib/meta';
import { PageFrame } from '../../components/layout/page-frame';
import { Field, SubmitButton } from '../../components/form/field';
import { FormAlert } from '../../components/form/form-alert';
import { useApiForm } from '../../lib/use-api-form';
import { useLocalePath } from '../../lib/use-locale';
import { api } from '../../lib/api';
import { useAffiliateRecord, type AffiliateJson } from '../../lib/use-affiliate';
import { AFFILIATE_CHANNELS, applySchema } from '../../../common/affiliate-schemas';
import { ProgrammeTerms } from '../../components/affiliate/programme-terms';
import { reloadAction } from '../../lib/form-action';

// Its forms need the page's scripts; one posted before they ran just reloads the page.
export const action = reloadAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliateApply.title', { noindex: true });

/** Tells as the user types whether the code they want is free. */
function useCodeCheck(code: string) {
  const [state, setState] = useState<'idle' | 'free' | 'taken' | 'invalid'>('idle');
  useEffect(() => {
    if (!code) return;
    const timer = window.setTimeout(() => {
      void api
        .get<{ valid: boolean; available: boolean }>(
          '/common-api/v1/distribution/check-code',
          { code },
          { handleErrors: true },
        )
        .then((r) => setState(!r.valid ? 'invalid' : r.available ? 'free' : 'taken'))
        .catch(() => setState('idle'));
    }, 300);
    return () => window.clearTimeout(timer);
  }, [code]);
  return code ? state : 'idle';
}

export default function AffiliateApply() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const navigate = useNavigate();
  const { affiliate } = useAffiliateRecord();
  const [code, setCode] = useState('');
  const check = useCodeCheck(code.trim());
  const form = useApiForm<typeof applySchema, AffiliateJson>({
    schema: applySchema,
    path: '/common-api/v1/distribution',
    onSuccess: () => navigate(lp('/affiliate/Dashboard')),
  });
  useEffect(() => {
    if (affiliate) void navigate(lp('/affiliate/Dashboard'), { replace: true });
  }, [affiliate, navigate, lp]);

  return (
    <PageFrame
      heading={t('pages.affiliateApply.heading')}
      subtitle={t('pages.affiliateApply.subtitle')}
      width="max-w-4xl"
    >
      <div className="grid gap-8 lg:grid-cols-5">
        <section className="lg:col-span-3" aria-labelledby="terms-title">
          <h2 id="terms-title" className="text-lg font-semibold text-slate-900">
            {t('affiliate.terms.title')}
          </h2>
          <ProgrammeTerms />
        </section>
        <form
          method="post"
          className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 lg:col-span-2"
          onSubmit={form.submit}
          noValidate
        >
          <FormAlert message={form.formError} />
          <Field
            label={t('affiliate.apply.website')}
            name="website"
            type="url"
            placeholder="https://"
            error={form.errors.website}
          />
          <div>
            <label htmlFor="channel" className="block text-sm font-medium text-slate-700">
              {t('affiliate.apply.channel')}
            </label>
            <select
              id="channel"
              name="channel"
              className="mt-1.5 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-sm"
            >
              {AFFILIATE_CHANNELS.map((c) => (
                <option key={c} value={c}>
                  {t(`affiliate.channels.${c}`)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="audience" className="block text-sm font-medium text-slate-700">
              {t('affiliate.apply.audience')}
            </label>
            <textarea
              id="audience"
              name="audience"
              rows={3}
              maxLength={500}
              className="mt-1.5 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
            />
          </div>
          <Field
            label={t('affiliate.apply.code')}
            name="code"
            value={code}
            onChange={(e) => setCode(e.target.value.toUpperCase())}
            maxLength={16}
            autoComplete="off"
            error={form.errors.code}
            hint={check === 'idle' ? t('affiliate.apply.codeHint') : t(`affiliate.apply.code_${check}`)}
          />
          <label className="flex items-start gap-2 text-sm text-slate-700">
            <input type="checkbox" name="accept_terms" className="mt-0.5" data-testid="accept-terms" />
            <span>{t('affiliate.apply.accept')}</span>
          </label>
          {form.errors.accept_terms ? (
            <p className="text-sm text-red-600" role="alert">
              {t(form.errors.accept_terms)}
            </p>
          ) : null}
          <SubmitButton pending={form.pending}>{t('affiliate.apply.submit')}</SubmitButton>
        </form>
      </div>
    </PageFrame>
  );
}
