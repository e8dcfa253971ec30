import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/home';
import { pageMeta } from '../lib/meta';
import { useLocale, useLocalePath } from '../lib/use-locale';
import { LOCALE_TAGS } from '../../common/locales';
import { formatMoney, type PlansJson } from '../../common/plans';
import { RANK_LIMITS, lockedFormats } from '../../common/ranks';
import { FaqList } from '../components/layout/faq-list';
import { StepCards } from '../components/layout/step-cards';
import { formatTime } from '../../common/format';
import { byPlan } from '../components/transcripts/locked-formats';
import { useFormat } from '../lib/use-format';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'home.title');

const FEATURES = ['accurate', 'languages', 'editor', 'export', 'share', 'private'] as const;
const STEPS = ['upload', 'transcribe', 'edit'] as const;
// The sample's lines are in the visitor's language (home.sampleLines); the timing is the same in all.
const SAMPLE = [
  { start: 0, end: 4.2, line: 'welcome' },
  { start: 4.2, end: 9.8, line: 'silences' },
  { start: 9.8, end: 15.1, line: 'timeline' },
] as const;

const STEP_MS = 2600;

/**
 * A live sample of the transcript view: the spoken line is highlighted as the (simulated) player
 * runs, and clicking a line jumps there — the same behaviour as the real editor.
 */
function SamplePreview() {
  const { t } = useTranslation();
  const [active, setActive] = useState(0);
  // Runs by itself unless the visitor asked for less motion; the play button starts and stops it.
  const [playing, setPlaying] = useState<boolean | null>(null);
  const running = playing ?? false;
  useEffect(() => {
    if (playing !== null) return;
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    const timer = window.setTimeout(() => setPlaying(!still), 0);
    return () => window.clearTimeout(timer);
  }, [playing]);
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setActive((i) => (i + 1) % SAMPLE.length), STEP_MS);
    return () => window.clearInterval(timer);
  }, [running]);
  const total = SAMPLE[SAMPLE.length - 1]!.end;
  return (
    <figure
      className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl shadow-brand-900/5"
      aria-label={t('home.sampleTitle')}
      data-testid="sample-transcript"
    >
      <figcaption className="flex items-center gap-1.5 border-b border-slate-100 px-4 py-3">
        <span className="h-2.5 w-2.5 rounded-full bg-slate-200" />
        <span className="h-2.5 w-2.5 rounded-full bg-slate-200" />
        <span className="h-2.5 w-2.5 rounded-full bg-slate-200" />
        <span className="ml-2 truncate text-xs font-medium text-slate-500">{t('home.sampleName')}</span>
      </figcaption>
      <div className="grid gap-0 md:grid-cols-5">
        <div className="relative flex aspect-video items-center justify-center bg-gradient-to-br from-slate-800 to-brand-900 md:col-span-2 md:aspect-auto">
          <button
            type="button"
            onClick={() => {
              // Playing again from the last line starts over.
              if (!running && active === SAMPLE.length - 1) setActive(0);
              setPlaying(!running);
            }}
            aria-label={running ? t('home.samplePause') : t('home.samplePlay')}
            aria-pressed={running}
            className="flex h-12 w-12 items-center justify-center rounded-full bg-white/90 hover:bg-white focus:ring-2 focus:ring-white focus:outline-none"
            data-testid="sample-play"
          >
            <svg viewBox="0 0 20 20" className="h-5 w-5 text-brand-700" aria-hidden>
              {running ? (
                <path fill="currentColor" d="M5 4h3.5v12H5zM11.5 4H15v12h-3.5z" />
              ) : (
                <path fill="currentColor" d="M7 4l10 6-10 6z" />
              )}
            </svg>
          </button>
          <div className="absolute inset-x-4 bottom-4 h-1 rounded bg-white/20">
            <div
              className="h-1 rounded bg-white transition-[width] duration-700"
              style={{ width: `${Math.round((SAMPLE[active]!.end / total) * 100)}%` }}
            />
          </div>
        </div>
        <ol className="divide-y divide-slate-100 md:col-span-3">
          {SAMPLE.map((s, i) => (
            <li key={s.start}>
              <button
                type="button"
                onClick={() => setActive(i)}
                aria-current={i === active ? 'true' : undefined}
                className={`flex w-full gap-4 px-5 py-4 text-left transition-colors ${i === active ? 'bg-brand-50' : 'hover:bg-slate-50'}`}
              >
                <span className="w-10 shrink-0 pt-0.5 font-mono text-xs text-brand-700">
                  {formatTime(s.start)}
                </span>
                <span className="text-sm leading-relaxed text-slate-700">
                  {t(`home.sampleLines.${s.line}`)}
                </span>
              </button>
            </li>
          ))}
        </ol>
      </div>
    </figure>
  );
}

const PLAN_SUMMARY = ['Free', 'STARTER', 'BASIC', 'UNLIMITED'] as const;
const FAQ = ['languages', 'formats', 'accuracy', 'privacy', 'free'] as const;

function PlanSummary({ plans }: { plans: PlansJson }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const lang = useLocale();
  return (
    <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6" aria-labelledby="plans-title">
      <h2
        id="plans-title"
        className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
      >
        {t('home.plansTitle')}
      </h2>
      <p className="mx-auto mt-3 max-w-2xl text-center text-slate-600">{t('home.plansText')}</p>
      <ul className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {PLAN_SUMMARY.map((rank) => {
          const plan = plans.plans.find((p) => p.rank === rank);
          const monthly = plan?.prices.monthly;
          const minutes = RANK_LIMITS[rank].minutes_per_month;
          return (
            <li key={rank} className="rounded-xl border border-slate-200 p-5">
              <p className="font-semibold text-slate-900">{t(`ranks.${rank}`)}</p>
              <p className="mt-2 text-2xl font-bold text-slate-900">
                {monthly ? formatMoney(monthly, LOCALE_TAGS[lang]) : '—'}
                {rank !== 'Free' ? (
                  <span className="ml-1 text-sm font-normal text-slate-500">
                    {t('pages.pricing.perMonth')}
                  </span>
                ) : null}
              </p>
              <p className="mt-1 text-sm text-slate-600">
                {minutes === null
                  ? t('home.plansUnlimited')
                  : t('home.plansMinutes', { minutes: minutes.toLocaleString(LOCALE_TAGS[lang]) })}
              </p>
            </li>
          );
        })}
      </ul>
      <p className="mt-8 text-center">
        <Link to={lp('/pricing')} className="font-semibold text-brand-700 hover:underline">
          {t('home.plansAll')} →
        </Link>
      </p>
    </section>
  );
}

function HomeFaq() {
  const { t } = useTranslation();
  return (
    <section className="bg-slate-50" aria-labelledby="home-faq">
      <div className="mx-auto max-w-3xl px-4 py-16 sm:px-6">
        <h2
          id="home-faq"
          className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl"
        >
          {t('home.faqTitle')}
        </h2>
        <FaqList
          className="mt-8"
          items={FAQ.map((key) => ({ q: t(`home.faq.${key}.q`), a: t(`home.faq.${key}.a`) }))}
        />
      </div>
    </section>
  );
}

export async function loader({ context }: Route.LoaderArgs) {
  return { plans: await context.getPlans() };
}

/**
 * What the export claims say, from the limits table: the formats every plan has, then each
 * other format with the cheapest plan that has it ("VTT, DOCX, and JSON with the Starter plan and up").
 */
function useExportClaims() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const free = RANK_LIMITS.Free.export_formats;
  const paid = [...byPlan(lockedFormats('Free', free))].flatMap(([rank, formats]) =>
    rank
      ? [
          t('exportLock.hint', {
            formats: fmt.list(formats.map((f) => f.toUpperCase())),
            plan: t(`ranks.${rank}`),
          }),
        ]
      : [],
  );
  return { everyPlan: fmt.list(free.map((f) => f.toUpperCase())), paid };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const exportsClaim = useExportClaims();
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 via-white to-white">
        <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pb-16 pt-14 sm:px-6 lg:grid-cols-2 lg:pt-20">
          <div>
            <h1 className="text-4xl font-bold tracking-tight text-slate-900 sm:text-5xl">
              {t('home.heroTitle')}
            </h1>
            <p className="mt-5 text-lg leading-relaxed text-slate-600">
              {t('home.heroSubtitle', { formats: exportsClaim.everyPlan })}
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link
                to={lp('/register')}
                className="rounded-lg bg-brand-600 px-5 py-3 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
              >
                {t('home.ctaStart')}
              </Link>
              <Link
                to={lp('/pricing')}
                className="rounded-lg border border-slate-300 bg-white px-5 py-3 text-sm font-semibold text-slate-800 hover:border-slate-400"
              >
                {t('home.ctaPricing')}
              </Link>
            </div>
            <p className="mt-4 text-sm text-slate-500">{t('home.trust')}</p>
          </div>
          <SamplePreview />
        </div>
      </section>

      <section className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
        <h2 className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {t('home.featuresTitle')}
        </h2>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
          {FEATURES.map((f) => (
            <div key={f} className="rounded-xl border border-slate-200 p-6">
              <h3 className="font-semibold text-slate-900">{t(`home.features.${f}.title`)}</h3>
              <p className="mt-2 text-sm leading-relaxed text-slate-600" data-feature={f}>
                {f === 'export'
                  ? [
                      t('home.features.export.text', { formats: exportsClaim.everyPlan }),
                      ...exportsClaim.paid,
                    ].join(' ')
                  : t(`home.features.${f}.text`)}
              </p>
            </div>
          ))}
        </div>
      </section>

      <section className="bg-slate-50">
        <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 className="text-center text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            {t('home.howTitle')}
          </h2>
          <StepCards
            className="mt-10"
            steps={STEPS.map((s) => ({ title: t(`home.steps.${s}.title`), text: t(`home.steps.${s}.text`) }))}
          />
        </div>
      </section>

      <PlanSummary plans={loaderData.plans} />
      <HomeFaq />

      <section className="mx-auto max-w-6xl px-4 py-16 text-center sm:px-6">
        <h2 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          {t('home.ctaBottomTitle')}
        </h2>
        <p className="mx-auto mt-3 max-w-xl text-slate-600">{t('home.ctaBottomText')}</p>
        <Link
          to={lp('/register')}
          className="mt-8 inline-block rounded-lg bg-brand-600 px-6 py-3 text-sm font-semibold text-white shadow-sm hover:bg-brand-700"
        >
          {t('home.ctaStart')}
        </Link>
      </section>
    </>
  );
}
