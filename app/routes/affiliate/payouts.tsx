import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Route } from './+types/payouts';
import { pageMeta } from '../../lib/meta';
import { useLocale } from '../../lib/use-locale';
import { useFormat } from '../../lib/use-format';
import { api } from '../../lib/api';
import { useApiForm } from '../../lib/use-api-form';
import { useAffiliate, useAffiliateGet, type BalanceJson } from '../../lib/use-affiliate';
import { Field, SubmitButton } from '../../components/form/field';
import { FormAlert } from '../../components/form/form-alert';
import { LOCALE_TAGS } from '../../../common/locales';
import { formatMoney } from '../../../common/plans';
import { payoutAccountSchema } from '../../../common/affiliate-schemas';
import { reloadAction } from '../../lib/form-action';
import type { SettlementStatus } from '../../../common/record-states';

// Its forms need the page's scripts; one posted before they ran just reloads the page.
export const action = reloadAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.affiliate.tabs.Settlement', { noindex: true });

interface PayoutJson {
  id: string;
  amount: number;
  currency: string;
  status: SettlementStatus;
  paypal_email: string;
  paypal_transaction_id: string | null;
  reason: string | null;
  requested_at: string;
}

export default function AffiliatePayouts() {
  const { t } = useTranslation();
  const tag = LOCALE_TAGS[useLocale()];
  const { affiliate, reload } = useAffiliate();
  const [version, setVersion] = useState(0);
  const [requesting, setRequesting] = useState(false);
  const summary = useAffiliateGet<{ balances: BalanceJson[]; minimum_payout: number; currency: string }>(
    'commission',
    undefined,
    version,
  );
  const history = useAffiliateGet<{ settlements: PayoutJson[] }>('settle-list', undefined, version);
  const account = useApiForm<typeof payoutAccountSchema, unknown>({
    schema: payoutAccountSchema,
    path: '/common-api/v1/distribution/update-info',
    onSuccess: async () => {
      await reload();
      toast.success(t('affiliate.payouts.saved'));
    },
  });
  const balance = summary?.balances[0];
  const currency = balance?.currency ?? summary?.currency ?? 'usd';
  const format = useFormat();
  const fmt = (amount: number, cur = currency) => formatMoney({ amount, currency: cur }, tag);
  const minimum = summary?.minimum_payout ?? affiliate.programme.minimum_payout;
  const available = balance?.available ?? 0;
  const canRequest = !!affiliate.paypal_email && available >= minimum;

  async function request() {
    setRequesting(true);
    try {
      await api.post('/common-api/v1/distribution/settle', { currency });
      toast.success(t('affiliate.payouts.requested'));
      setVersion((v) => v + 1);
    } catch {
      // The client showed the translated reason.
    } finally {
      setRequesting(false);
    }
  }

  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <section className="rounded-xl border border-slate-200 bg-white p-5" aria-labelledby="balance-title">
        <h2 id="balance-title" className="font-semibold text-slate-900">
          {t('affiliate.payouts.balance')}
        </h2>
        <p className="mt-2 text-3xl font-bold tabular-nums text-slate-900" data-testid="available-balance">
          {fmt(available)}
        </p>
        <p className="mt-1 text-sm text-slate-600">
          {t('affiliate.payouts.pendingLine', {
            pending: fmt(balance?.pending ?? 0),
            minimum: fmt(minimum, 'usd'),
          })}
        </p>
        <button
          type="button"
          onClick={() => void request()}
          disabled={!canRequest || requesting}
          className="mt-4 rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:cursor-not-allowed disabled:opacity-50"
          data-testid="request-payout"
        >
          {t('affiliate.payouts.request')}
        </button>
        {!affiliate.paypal_email ? (
          <p className="mt-2 text-sm text-amber-800">{t('affiliate.payouts.needAccount')}</p>
        ) : available < minimum ? (
          <p className="mt-2 text-sm text-slate-500">
            {t('affiliate.payouts.belowMinimum', { minimum: fmt(minimum, 'usd') })}
          </p>
        ) : null}
      </section>

      <section className="rounded-xl border border-slate-200 bg-white p-5" aria-labelledby="account-title">
        <h2 id="account-title" className="font-semibold text-slate-900">
          {t('affiliate.payouts.account')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">{t('affiliate.payouts.accountText')}</p>
        <form method="post" className="mt-4 space-y-3" onSubmit={account.submit} noValidate>
          <FormAlert message={account.formError} />
          <input type="hidden" name="payment_type" value="paypal" />
          <Field
            label={t('affiliate.payouts.paypal')}
            name="paypal_email"
            type="email"
            defaultValue={affiliate.paypal_email ?? ''}
            error={account.errors.paypal_email}
            autoComplete="email"
          />
          <SubmitButton pending={account.pending}>{t('affiliate.payouts.save')}</SubmitButton>
        </form>
      </section>

      <section className="lg:col-span-2" aria-labelledby="history-title">
        <h2 id="history-title" className="font-semibold text-slate-900">
          {t('affiliate.payouts.history')}
        </h2>
        {history && history.settlements.length > 0 ? (
          <table className="mt-3 w-full text-left text-sm" data-testid="payout-history">
            <thead className="text-xs text-slate-500">
              <tr>
                <th className="py-2 font-medium">{t('affiliate.details.date')}</th>
                <th className="py-2 font-medium">{t('affiliate.details.status')}</th>
                <th className="py-2 font-medium">{t('affiliate.payouts.paypal')}</th>
                <th className="py-2 text-right font-medium">{t('affiliate.details.amount')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {history.settlements.map((s) => (
                <tr key={s.id}>
                  <td className="py-2 text-slate-600">
                    {format.isoDate(s.requested_at)}
                  </td>
                  <td className="py-2">
                    {t(`affiliate.payouts.states.${s.status}`)}
                    {s.paypal_transaction_id ? ` · ${s.paypal_transaction_id}` : ''}
                    {s.reason ? ` · ${s.reason}` : ''}
                  </td>
                  <td className="py-2 text-slate-600">{s.paypal_email}</td>
                  <td className="py-2 text-right tabular-nums">{fmt(s.amount, s.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p className="mt-2 text-sm text-slate-500">{t('affiliate.payouts.noHistory')}</p>
        )}
      </section>
    </div>
  );
}
