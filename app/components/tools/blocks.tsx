import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ToolPageJson } from '../../../common/tool-content';
import { useLocalePath } from '../../lib/use-locale';
import { useUserState } from '../../lib/user-state';
import { FaqList } from '../layout/faq-list';
import { StepCards } from '../layout/step-cards';
import { BLOCK_SLUGS } from '../../../common/tool-blocks';

// The blocks a /tools landing page is made of (common/tool-blocks.ts). Each carries its gallery
// slug in data-block, the name /tools/components/<slug> shows it under.

/** Signed in: straight to the upload on the dashboard; otherwise sign up first. */
function useUploadLink(): string {
  const lp = useLocalePath();
  return useUserState().isLogin ? `${lp('/dashboard')}#upload` : lp('/register');
}

export function HeroBlock({ page }: { page: ToolPageJson }) {
  const { t } = useTranslation();
  const upload = useUploadLink();
  return (
    <section className="bg-gradient-to-b from-brand-50 via-white to-white" data-block={BLOCK_SLUGS.hero}>
      <div className="mx-auto max-w-4xl px-4 pb-12 pt-12 text-center sm:px-6 sm:pt-16">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-5xl">{page.h1}</h1>
        {page.intro.map((p) => (
          <p key={p} className="mx-auto mt-5 max-w-2xl text-lg leading-relaxed text-slate-600">
            {p}
          </p>
        ))}
        <Link
          to={upload}
          className="mt-8 inline-block rounded-lg bg-brand-600 px-6 py-3 text-base font-semibold text-white shadow-sm hover:bg-brand-700"
          data-testid="tool-cta"
        >
          {page.cta}
        </Link>
        <p className="mt-3 text-sm text-slate-500">{t('home.trust')}</p>
      </div>
    </section>
  );
}

export function StepsBlock({ page }: { page: ToolPageJson }) {
  const { t } = useTranslation();
  return (
    <section className="bg-slate-50" aria-labelledby="steps-title" data-block={BLOCK_SLUGS.steps}>
      <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
        <h2 id="steps-title" className="text-center text-2xl font-bold tracking-tight text-slate-900">
          {t('tools.stepsTitle')}
        </h2>
        <StepCards steps={page.steps} />
      </div>
    </section>
  );
}

export function FeaturesBlock({ page }: { page: ToolPageJson }) {
  const { t } = useTranslation();
  return (
    <section
      className="mx-auto max-w-6xl px-4 py-14 sm:px-6"
      aria-labelledby="features-title"
      data-block={BLOCK_SLUGS.features}
    >
      <h2 id="features-title" className="text-center text-2xl font-bold tracking-tight text-slate-900">
        {t('tools.featuresTitle')}
      </h2>
      <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {page.features.map((f) => (
          <div key={f.title} className="rounded-xl border border-slate-200 p-6">
            <h3 className="font-semibold text-slate-900">{f.title}</h3>
            <p className="mt-2 text-sm leading-relaxed text-slate-600">{f.text}</p>
          </div>
        ))}
      </div>
    </section>
  );
}

export function FaqBlock({ page }: { page: ToolPageJson }) {
  const { t } = useTranslation();
  return (
    <section
      className="mx-auto max-w-3xl px-4 py-14 sm:px-6"
      aria-labelledby="faq-title"
      data-block={BLOCK_SLUGS.faq}
    >
      <h2 id="faq-title" className="text-center text-2xl font-bold tracking-tight text-slate-900">
        {t('tools.faqTitle')}
      </h2>
      <FaqList className="mt-8" items={page.faq} />
    </section>
  );
}

export function MoreToolsBlock({ page }: { page: ToolPageJson }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  if (page.related.length === 0) return null;
  return (
    <section className="bg-slate-50" aria-labelledby="more-title" data-block={BLOCK_SLUGS.moreTools}>
      <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
        <h2 id="more-title" className="text-xl font-bold tracking-tight text-slate-900">
          {t('tools.moreTitle')}
        </h2>
        <ul className="mt-6 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {page.related.map((r) => (
            <li key={r.slug}>
              <Link
                to={lp(`/tools/${r.slug}`)}
                className="block rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm font-semibold text-slate-800 hover:border-brand-500 hover:text-brand-700"
              >
                {r.nav} →
              </Link>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
