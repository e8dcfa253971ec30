import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { WorkspaceSeatsJson } from '../../../common/workspace-types';
import { Field } from '../form/field';
import { FormAlert } from '../form/form-alert';
import { CreateButton, useCreateForm } from '../developer/owned-list';
import { api, SEATS_ANCHOR } from '../../lib/api';
import { useLocale, useLocalePath } from '../../lib/use-locale';

/**
 * A team's seats: used over every team of the plan (decision 0044) against those paid for, and
 * for the account holding the plan's Stripe subscription the way to change them — a prorated
 * update here (POST /billing/seats) or Stripe's Customer Portal.
 */
export function SeatsControl({
  workspaceId,
  seats,
  onChanged,
}: {
  workspaceId: string;
  seats: WorkspaceSeatsJson;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const full = seats.taken >= seats.total;
  const box = useRef<HTMLDivElement>(null);
  // Arriving from a refusal's "Manage seats": the control loads after the page, so bring it into view.
  useEffect(() => {
    if (window.location.hash !== `#${SEATS_ANCHOR}`) return;
    box.current?.scrollIntoView({ block: 'center' });
    box.current?.querySelector('input')?.focus({ preventScroll: true });
  }, []);
  return (
    <div ref={box} id={SEATS_ANCHOR} className="mb-4 scroll-mt-24 space-y-3" data-testid="workspace-seats">
      <div>
        <p className="text-sm font-medium text-slate-800" data-testid="seats-count">
          {t('workspaces.settings.seats', { taken: seats.taken, count: seats.total })}
        </p>
        <p className="mt-0.5 text-xs text-slate-500">{t('workspaces.seats.shared')}</p>
      </div>
      {seats.change === 'update' ? (
        <SeatsForm workspaceId={workspaceId} seats={seats} onChanged={onChanged} />
      ) : full && seats.change === 'plans' ? (
        <p className="text-sm text-slate-600">
          {t('workspaces.settings.moreSeats')}{' '}
          <Link to={lp('/pricing')} className="font-medium text-brand-700 hover:underline">
            {t('workspaces.settings.seePlans')}
          </Link>
        </p>
      ) : full ? (
        <p className="text-sm text-slate-600">{t('workspaces.seats.askOwner')}</p>
      ) : null}
    </div>
  );
}

function SeatsForm({
  workspaceId,
  seats,
  onChanged,
}: {
  workspaceId: string;
  seats: WorkspaceSeatsJson;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLocale();
  const { pending, error, fields, post } = useCreateForm();
  const [portal, setPortal] = useState(false);
  const min = Math.max(1, seats.taken);
  return (
    <form
      method="post"
      className="grid gap-3 rounded-lg border border-slate-200 bg-slate-50/60 p-4 sm:grid-cols-[minmax(0,12rem)_auto_1fr] sm:items-end"
      data-testid="seats-form"
      onSubmit={(e) => {
        e.preventDefault();
        const value = Number(new FormData(e.currentTarget).get('seats'));
        void post<{ seats: number }>('/self-api/v1/billing/seats', {
          workspace_id: workspaceId,
          seats: value,
        }).then((done) => {
          if (!done) return;
          toast.success(t('workspaces.seats.changed', { count: done.seats }));
          onChanged();
        });
      }}
    >
      {error ? (
        <div className="sm:col-span-3">
          <FormAlert message={error} />
        </div>
      ) : null}
      <Field
        label={t('workspaces.seats.label')}
        name="seats"
        type="number"
        inputMode="numeric"
        min={min}
        max={seats.max}
        step={1}
        required
        defaultValue={seats.total}
        key={seats.total}
        error={fields.seats}
        data-testid="seats-input"
      />
      <CreateButton pending={pending}>{t('workspaces.seats.update')}</CreateButton>
      <button
        type="button"
        disabled={portal}
        className="justify-self-start rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-800 hover:border-slate-400 disabled:opacity-60 sm:justify-self-end"
        onClick={() => {
          setPortal(true);
          api
            .post<{ url: string }>('/self-api/v1/billing/portal', { lang, flow: 'seats' })
            .then(({ url }) => window.location.assign(url))
            .catch(() => setPortal(false));
        }}
      >
        {portal ? t('pages.pricing.redirecting') : t('workspaces.seats.portal')}
      </button>
      <p className="text-xs text-slate-500 sm:col-span-3">
        {t('workspaces.seats.hint', { min, max: seats.max })}
      </p>
    </form>
  );
}
