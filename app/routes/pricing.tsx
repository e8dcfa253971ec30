import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/pricing';
import { pageMeta } from '../lib/meta';
import { PageFrame } from '../components/layout/page-frame';
import { LOCALE_TAGS } from '../../common/locales';
import type { BillingInterval, PaidRank, PlanJson } from '../../common/plans';
import { standardRank } from '../../common/ranks';
import type { BillingStatusJson } from '../../common/billing-types';
import { useLocale } from '../lib/use-locale';
import { useUserState } from '../lib/user-state';
import { useBillingRedirects, useBillingStatus } from '../lib/use-billing';
import { PlanCard, type PlanAction } from '../components/billing/plan-card';
import { ComparisonTable } from '../components/billing/comparison-table';
import { FaqList } from '../components/layout/faq-list';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.pricing.title');

export async function loader({ context }: Route.LoaderArgs) {
  return { plans: await context.getPlans() };
}

const FAQ = ['cancel', 'runOut', 'rollover', 'change', 'payment', 'refund', 'enterprise'] as const;

function actionFor(
  plan: PlanJson,
  interval: BillingInterval,
  opts: {
    loggedIn: boolean;
    rank: string | null;
    status: BillingStatusJson | null;
    paymentsEnabled: boolean;
  },
): PlanAction {
  const current = opts.loggedIn && standardRank(opts.rank) === plan.rank;
  if (current) return { kind: 'current' };
  if (plan.rank === 'Free') return opts.loggedIn ? { kind: 'unavailable' } : { kind: 'start' };
  if (!plan.purchasable[interval] || !opts.paymentsEnabled) {
    return plan.rank === 'Enterprise' ? { kind: 'contact' } : { kind: 'unavailable' };
  }
  if (!opts.loggedIn) return { kind: 'signin' };
  if (opts.status?.subscription) return { kind: 'portal' };
  return { kind: 'checkout' };
}

export default function Pricing({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const lang = useLocale();
  const [params] = useSearchParams();
  const [interval, setInterval] = useState<BillingInterval>('monthly');
  const user = useUserState();
  const { status } = useBillingStatus(user.isLogin);
  const redirects = useBillingRedirects();
  const { plans, payments_enabled } = loaderData.plans;

  return (
    <PageFrame heading={t('pages.pricing.heading')} subtitle={t('pages.pricing.subtitle')} width="max-w-7xl">
      {!payments_enabled ? (
        <p
          className="mb-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
          role="status"
        >
          {t('pages.pricing.notConfigured')}
        </p>
      ) : null}
      {params.get('canceled') ? (
        <p
          className="mb-6 rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700"
          role="status"
        >
          {t('pages.pricing.canceled')}
        </p>
      ) : null}

      <div className="mb-8 flex justify-center">
        <div
          role="radiogroup"
          aria-label={t('pages.pricing.billing')}
          className="inline-flex rounded-full border border-slate-200 bg-white p-1"
        >
          {(['monthly', 'yearly'] as const).map((value) => (
            <button
              key={value}
              type="button"
              role="radio"
              aria-checked={interval === value}
              onClick={() => setInterval(value)}
              className={`rounded-full px-4 py-1.5 text-sm font-semibold transition ${interval === value ? 'bg-brand-600 text-white' : 'text-slate-700 hover:text-slate-900'}`}
            >
              {t(`pages.pricing.${value}`)}
              {value === 'yearly' ? (
                <span
                  className={`ml-1.5 text-xs ${interval === value ? 'text-brand-100' : 'text-brand-700'}`}
                >
                  {t('pages.pricing.yearlySave')}
                </span>
              ) : null}
            </button>
          ))}
        </div>
      </div>

      <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {plans.map((plan) => (
          <PlanCard
            key={plan.rank}
            plan={plan}
            interval={interval}
            intlLocale={LOCALE_TAGS[lang]}
            action={actionFor(plan, interval, {
              loggedIn: user.isLogin,
              rank: user.userinfo?.rank_name ?? null,
              status,
              paymentsEnabled: payments_enabled,
            })}
            pending={redirects.pending !== null}
            onCheckout={() => void redirects.checkout(plan.rank as PaidRank, interval)}
            onPortal={() => void redirects.portal()}
          />
        ))}
      </div>
      <p className="mt-4 text-center text-xs text-slate-500">{t('pages.pricing.taxNote')}</p>

      <section className="mt-16" aria-labelledby="compare">
        <h2 id="compare" className="mb-4 text-xl font-bold text-slate-900">
          {t('pages.pricing.compareTitle')}
        </h2>
        <ComparisonTable />
      </section>

      <section className="mt-16" aria-labelledby="faq">
        <h2 id="faq" className="mb-4 text-xl font-bold text-slate-900">
          {t('pages.pricing.faqTitle')}
        </h2>
        <FaqList
          items={FAQ.map((key) => ({
            q: t(`pages.pricing.faq.${key}.q`),
            a: t(`pages.pricing.faq.${key}.a`),
          }))}
        />
      </section>
    </PageFrame>
  );
}
