import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/assets';
import { pageMeta } from '../../lib/meta';
import { useLocale, useRootData } from '../../lib/use-locale';
import { useAffiliate } from '../../lib/use-affiliate';
import { useApiForm } from '../../lib/use-api-form';
import { CopyButton } from '../../components/affiliate/copy-button';
import { useProgrammeValues } from '../../components/affiliate/programme-terms';
import { Field, SubmitButton } from '../../components/form/field';
import { FormAlert } from '../../components/form/form-alert';
import { localizePath, localeParam } from '../../../common/locales';
import { newCodeSchema } from '../../../common/affiliate-schemas';
import { reloadAction } from '../../lib/form-action';

// Its forms need the page's scripts; one posted before they ran just reloads the page.
export const action = reloadAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliate.tabs.Assets', { noindex: true });

/** The tool pages, so the link builder can point at any of them. */
export async function loader({ params, context }: Route.LoaderArgs) {
  return { tools: await context.getFooterTools(localeParam(params.lang)) };
}

const PAGES = ['/', '/pricing'] as const;
const SNIPPETS = ['short', 'review', 'tools'] as const;

/** A link to any page of the site that carries the referral code. */
function referralLink(origin: string, path: string, code: string): string {
  const url = new URL(path, origin);
  url.searchParams.set('ref', code);
  return url.toString();
}

export default function AffiliateAssets({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLocale();
  const values = useProgrammeValues();
  const origin = useRootData()?.config.publicUrl ?? '';
  const { affiliate, reload } = useAffiliate();
  const [code, setCode] = useState(affiliate.distribution_code ?? '');
  const [page, setPage] = useState<string>('/');
  const tools = loaderData.tools.groups.flatMap((g) => g.tools);
  const built = referralLink(origin, localizePath(page, lang), code);
  const form = useApiForm<typeof newCodeSchema, unknown>({
    schema: newCodeSchema,
    path: '/common-api/v1/distribution/code',
    onSuccess: () => reload(),
  });
  const home = (c: string) => referralLink(origin, localizePath('/', lang), c);

  return (
    <div className="space-y-8">
      <section aria-labelledby="links-title">
        <h2 id="links-title" className="font-semibold text-slate-900">
          {t('affiliate.assets.links')}
        </h2>
        <ul className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {affiliate.codes.map((c) => (
            <li key={c.code} className="flex flex-wrap items-center gap-3 px-4 py-3" data-code={c.code}>
              <div className="min-w-0 flex-1">
                <p className="font-mono text-sm font-semibold text-slate-900">{c.code}</p>
                <p className="truncate text-xs text-slate-500">
                  {c.label ? `${c.label} · ` : ''}
                  {t('affiliate.assets.codeStats', { clicks: c.clicks, signups: c.signups })}
                </p>
                <p className="mt-1 truncate font-mono text-xs text-slate-700" data-testid="referral-link">
                  {home(c.code)}
                </p>
              </div>
              <CopyButton text={home(c.code)} label={t('affiliate.assets.copyLink')} />
            </li>
          ))}
        </ul>
        <form
          method="post"
          className="mt-4 grid gap-3 sm:grid-cols-3 sm:items-end"
          onSubmit={form.submit}
          noValidate
        >
          <Field
            label={t('affiliate.assets.newCode')}
            name="code"
            maxLength={16}
            error={form.errors.code}
            hint={t('affiliate.apply.codeHint')}
          />
          <Field label={t('affiliate.assets.label')} name="label" maxLength={60} error={form.errors.label} />
          <div className="sm:pb-6">
            <SubmitButton pending={form.pending}>{t('affiliate.assets.addCode')}</SubmitButton>
          </div>
        </form>
        <FormAlert message={form.formError} />
      </section>

      <section aria-labelledby="builder-title" className="rounded-xl border border-slate-200 bg-white p-5">
        <h2 id="builder-title" className="font-semibold text-slate-900">
          {t('affiliate.assets.builder')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('affiliate.assets.builderText')}</p>
        <div className="mt-4 grid gap-3 sm:grid-cols-2">
          <label className="text-sm font-medium text-slate-700">
            {t('affiliate.assets.page')}
            <select
              className="mt-1.5 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-sm"
              value={page}
              onChange={(e) => setPage(e.target.value)}
              data-testid="builder-page"
            >
              {PAGES.map((p) => (
                <option key={p} value={p}>
                  {t(`affiliate.assets.pages.${p === '/' ? 'home' : 'pricing'}`)}
                </option>
              ))}
              {tools.map((tool) => (
                <option key={tool.slug} value={`/tools/${tool.slug}`}>
                  {tool.nav}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm font-medium text-slate-700">
            {t('affiliate.assets.code')}
            <select
              className="mt-1.5 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-sm"
              value={code}
              onChange={(e) => setCode(e.target.value)}
            >
              {affiliate.codes.map((c) => (
                <option key={c.code}>{c.code}</option>
              ))}
            </select>
          </label>
        </div>
        <div className="mt-4 flex items-center gap-3 rounded-lg bg-slate-50 px-3 py-2">
          <code className="min-w-0 flex-1 truncate text-xs text-slate-800" data-testid="built-link">
            {built}
          </code>
          <CopyButton text={built} />
        </div>
      </section>

      <section aria-labelledby="snippets-title">
        <h2 id="snippets-title" className="font-semibold text-slate-900">
          {t('affiliate.assets.snippets')}
        </h2>
        <ul className="mt-3 space-y-3">
          {SNIPPETS.map((s) => {
            const text = t(`affiliate.assets.snippet.${s}`, { ...values, link: home(code) });
            return (
              <li key={s} className="flex items-start gap-3 rounded-xl border border-slate-200 bg-white p-4">
                <p className="flex-1 text-sm leading-6 text-slate-700">{text}</p>
                <CopyButton text={text} />
              </li>
            );
          })}
        </ul>
      </section>
    </div>
  );
}
