import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/pay-success';
import { pageMeta } from '../lib/meta';
import { PageFrame } from '../components/layout/page-frame';
import { fetchBillingStatus } from '../lib/use-billing';
import { useLocale, useLocalePath } from '../lib/use-locale';
import { refreshUserState } from '../lib/user-state';
import type { BillingStatusJson } from '../../common/billing-types';
import { LOCALE_TAGS } from '../../common/locales';
import { RANK_LIMITS, standardRank } from '../../common/ranks';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.paySuccess.title', { noindex: true });

const POLL_MS = 2000;
const PATIENCE_MS = 60_000;

type Phase = 'waiting' | 'done' | 'slow';

/** The webhook, not this redirect, applies the plan: poll until the subscription is in force. */
function useAppliedPlan(attempt: number, setPhase: (p: Phase) => void) {
  const [status, setStatus] = useState<BillingStatusJson | null>(null);
  useEffect(() => {
    let stopped = false;
    const started = Date.now();
    async function tick() {
      if (stopped) return;
      const next = await fetchBillingStatus();
      if (stopped) return;
      if (next?.subscription && next.rank_name !== 'Free') {
        setStatus(next);
        setPhase('done');
        void refreshUserState();
        return;
      }
      if (Date.now() - started >= PATIENCE_MS) {
        setPhase('slow');
        return;
      }
      setTimeout(() => void tick(), POLL_MS);
    }
    void tick();
    return () => {
      stopped = true;
    };
  }, [attempt, setPhase]);
  return status;
}

export default function PaySuccess() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const lang = useLocale();
  const [attempt, setAttempt] = useState(0);
  const [phase, setPhase] = useState<Phase>('waiting');
  const status = useAppliedPlan(attempt, setPhase);
  const rank = standardRank(status?.rank_name);
  const minutes = rank ? RANK_LIMITS[rank].minutes_per_month : null;
  const renews = status?.subscription?.current_period_end
    ? new Intl.DateTimeFormat(LOCALE_TAGS[lang], { dateStyle: 'long' }).format(
        new Date(status.subscription.current_period_end),
      )
    : null;

  return (
    <PageFrame heading={t('pages.paySuccess.heading')} width="max-w-2xl">
      <section className="rounded-2xl border border-slate-200 bg-white p-6 sm:p-8" aria-live="polite">
        {phase === 'waiting' ? (
          <div className="flex items-center gap-3 text-slate-700" data-testid="pay-waiting">
            <span
              className="h-5 w-5 animate-spin rounded-full border-2 border-brand-600 border-t-transparent"
              aria-hidden="true"
            />
            <p>{t('pages.paySuccess.waiting')}</p>
          </div>
        ) : phase === 'done' && status ? (
          <div data-testid="pay-done">
            <p className="text-xl font-semibold text-slate-900">
              {t('pages.paySuccess.done', { plan: rank ? t(`ranks.${rank}`) : status.rank_name })}
            </p>
            <p className="mt-2 text-slate-600">
              {minutes === null
                ? t('pages.paySuccess.doneUnlimited')
                : t('pages.paySuccess.doneMinutes', {
                    minutes: minutes.toLocaleString(LOCALE_TAGS[lang]),
                  })}{' '}
              {renews ? t('pages.paySuccess.renews', { date: renews }) : null}
            </p>
            <div className="mt-6 flex flex-wrap gap-3">
              <Link
                to={lp('/dashboard')}
                className="rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
              >
                {t('pages.paySuccess.start')}
              </Link>
              <Link
                to={lp('/profile')}
                className="rounded-lg border border-slate-300 px-4 py-2.5 text-sm font-semibold text-slate-800 hover:border-slate-400"
              >
                {t('pages.paySuccess.billing')}
              </Link>
            </div>
          </div>
        ) : (
          <div data-testid="pay-slow">
            <p className="text-slate-800">{t('pages.paySuccess.slow')}</p>
            <div className="mt-6 flex flex-wrap gap-3">
              <button
                type="button"
                onClick={() => {
                  setPhase('waiting');
                  setAttempt((n) => n + 1);
                }}
                className="rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700"
              >
                {t('pages.paySuccess.checkAgain')}
              </button>
              <a
                href="mailto:support@clipscribe.app"
                className="rounded-lg border border-slate-300 px-4 py-2.5 text-sm font-semibold text-slate-800 hover:border-slate-400"
              >
                {t('pages.paySuccess.contact')}
              </a>
            </div>
          </div>
        )}
      </section>
    </PageFrame>
  );
}
