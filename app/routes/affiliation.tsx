import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/affiliation';
import { pageMeta } from '../lib/meta';
import { FaqList } from '../components/layout/faq-list';
import { StepCards } from '../components/layout/step-cards';
import { useLocalePath } from '../lib/use-locale';
import { ProgrammeTerms, useProgrammeValues } from '../components/affiliate/programme-terms';

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliation.title', { descriptionKey: 'pages.affiliation.subtitle' });

const STEPS = ['apply', 'share', 'earn'] as const;
const FAQ = ['who', 'tracking', 'payout', 'refunds', 'tools'] as const;

/** The public explanation of the affiliate programme; it leads to /affiliate/apply. */
export default function Affiliation() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const values = useProgrammeValues();
  const cta = (
    <Link
      to={lp('/affiliate/apply')}
      className="inline-block rounded-lg bg-brand-600 px-5 py-3 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
    >
      {t('pages.affiliation.cta')}
    </Link>
  );
  const figures = [
    [`${values.percent} %`, t('affiliation.figures.percent')],
    [t('affiliation.figures.monthsValue', values), t('affiliation.figures.months')],
    [t('affiliation.figures.daysValue', values), t('affiliation.figures.days')],
    [values.minimum, t('affiliation.figures.minimum')],
  ];
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 via-white to-white">
        <div className="mx-auto max-w-4xl px-4 pb-12 pt-14 text-center sm:px-6">
          <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-5xl">
            {t('pages.affiliation.heading')}
          </h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-600">{t('affiliation.intro', values)}</p>
          <div className="mt-8">{cta}</div>
        </div>
      </section>
      <section className="mx-auto max-w-6xl px-4 py-10 sm:px-6" aria-label={t('affiliation.figuresTitle')}>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {figures.map(([value, label]) => (
            <div key={label} className="rounded-xl border border-slate-200 bg-white p-5 text-center">
              <dt className="text-sm text-slate-600">{label}</dt>
              <dd className="mt-1 text-3xl font-bold text-brand-700">{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="bg-slate-50" aria-labelledby="how-title">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <h2 id="how-title" className="text-center text-2xl font-bold text-slate-900">
            {t('affiliation.howTitle')}
          </h2>
          <StepCards
            steps={STEPS.map((s) => ({
              title: t(`affiliation.steps.${s}.title`),
              text: t(`affiliation.steps.${s}.text`, values),
            }))}
          />
        </div>
      </section>
      <section className="mx-auto max-w-3xl px-4 py-14 sm:px-6" aria-labelledby="aff-faq">
        <h2 id="aff-faq" className="text-center text-2xl font-bold text-slate-900">
          {t('affiliation.faqTitle')}
        </h2>
        <FaqList
          className="mt-8"
          items={FAQ.map((key) => ({
            q: t(`affiliation.faq.${key}.q`),
            a: t(`affiliation.faq.${key}.a`, values),
          }))}
        />
      </section>
      <section className="mx-auto max-w-3xl px-4 pb-16 sm:px-6" aria-labelledby="aff-terms">
        <h2 id="aff-terms" className="text-xl font-bold text-slate-900">
          {t('affiliate.terms.title')}
        </h2>
        <ProgrammeTerms />
        <div className="mt-8 text-center">{cta}</div>
      </section>
    </>
  );
}
