import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { api } from '../../lib/api';
import { WEBHOOK_EVENTS } from '../../../common/webhook-events';
import { Field } from '../form/field';
import { FormAlert } from '../form/form-alert';
import { WebhookSecret } from './webhook-secret';
import { outcomeText } from './delivery-outcome';
import { CreateButton, DangerButton, OwnedList, useCreateForm, useOwnedList } from './owned-list';
import type { WebhookDeliveryStatus } from '../../../common/record-states';

interface Endpoint {
  id: string;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  failure_count: number;
  previous_secret_expires_at: string | null;
  /** Only in the answer that made it (creation, rotation). */
  secret?: string;
}

interface Delivery {
  id: string;
  event: string;
  status: WebhookDeliveryStatus;
  response_status: number | null;
  error: string | null;
  attempts: unknown[];
  created_at: string;
}

const BASE = '/self-api/v1/webhooks';
const STATUS_STYLE = {
  succeeded: 'bg-emerald-50 text-emerald-800',
  failed: 'bg-red-50 text-red-700',
  pending: 'bg-amber-50 text-amber-800',
} as const;

/** UTC, to the second: the same text on the server and in the browser. */
const stamp = (iso: string) => iso.slice(0, 19).replace('T', ' ');

function DeliveryLog({ id, version }: { id: string; version: number }) {
  const { t } = useTranslation();
  const [items, setItems] = useState<Delivery[] | null>(null);
  useEffect(() => {
    void api
      .get<{ items: Delivery[] }>(`${BASE}/${id}/deliveries`)
      .then((d) => setItems(d.items))
      .catch(() => setItems([]));
  }, [id, version]);
  if (items === null) return <p className="text-xs text-slate-500">{t('common.loading')}</p>;
  if (items.length === 0)
    return <p className="text-xs text-slate-500">{t('developer.webhooks.noDeliveries')}</p>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-xs" data-testid="webhook-deliveries">
        <tbody className="divide-y divide-slate-100">
          {items.map((d) => (
            <tr key={d.id}>
              <td className="whitespace-nowrap py-1.5 pr-3 font-mono text-slate-500">
                {stamp(d.created_at)}
              </td>
              <td className="py-1.5 pr-3 text-slate-800">{t(`developer.webhooks.eventNames.${d.event}`)}</td>
              <td className="py-1.5 pr-3">
                <span className={`rounded px-1.5 py-0.5 font-medium ${STATUS_STYLE[d.status]}`}>
                  {t(`developer.webhooks.status.${d.status}`)}
                </span>
              </td>
              <td className="py-1.5 pr-3 text-slate-700" data-testid="webhook-outcome">
                {outcomeText(t, d, true)}
              </td>
              <td className="whitespace-nowrap py-1.5 text-slate-500">
                {t('developer.webhooks.attempts', { count: d.attempts.length })}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function EndpointItem({
  endpoint,
  onChange,
  onDelete,
}: {
  endpoint: Endpoint;
  onChange: (e: Endpoint) => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [version, setVersion] = useState(0);
  const [busy, setBusy] = useState(false);

  async function test() {
    setBusy(true);
    try {
      const d = await api.post<Delivery>(`${BASE}/${endpoint.id}/test`);
      if (d.status === 'succeeded')
        toast.success(t('developer.webhooks.testOk', { status: d.response_status }));
      else toast.error(t('developer.webhooks.testFailed', { reason: outcomeText(t, d) }));
      setOpen(true);
      setVersion((v) => v + 1);
    } finally {
      setBusy(false);
    }
  }

  return (
    <li className="space-y-2 px-3 py-3" data-testid="webhook-endpoint">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm text-slate-900">{endpoint.url}</p>
          <p className="text-xs text-slate-500">
            {endpoint.description ? `${endpoint.description} · ` : ''}
            {endpoint.events.map((e) => t(`developer.webhooks.eventNames.${e}`)).join(', ')}
          </p>
          <p
            className={`mt-0.5 text-xs font-medium ${endpoint.enabled ? 'text-emerald-700' : 'text-red-700'}`}
          >
            {endpoint.enabled
              ? t('developer.webhooks.enabled')
              : endpoint.disabled_reason === 'failures'
                ? t('developer.webhooks.offFailures', { count: endpoint.failure_count })
                : t('developer.webhooks.off')}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            disabled={busy}
            onClick={() => void test()}
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold text-slate-800 hover:border-slate-400 disabled:opacity-60"
          >
            {t('developer.webhooks.test')}
          </button>
          <button
            type="button"
            onClick={() =>
              void api
                .patch<Endpoint>(`${BASE}/${endpoint.id}`, { enabled: !endpoint.enabled })
                .then(onChange)
            }
            className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold text-slate-800 hover:border-slate-400"
          >
            {endpoint.enabled ? t('developer.webhooks.turnOff') : t('developer.webhooks.turnOn')}
          </button>
          <DangerButton
            onClick={() => {
              if (!window.confirm(t('developer.webhooks.deleteAsk', { url: endpoint.url }))) return;
              void api.del(`${BASE}/${endpoint.id}`).then(() => {
                toast.success(t('developer.webhooks.deleted'));
                onDelete();
              });
            }}
          >
            {t('developer.webhooks.delete')}
          </DangerButton>
        </div>
      </div>
      <WebhookSecret
        path={`${BASE}/${endpoint.id}`}
        initial={endpoint.secret ?? null}
        previousUntil={endpoint.previous_secret_expires_at}
        onRotated={(made) =>
          onChange({ ...endpoint, previous_secret_expires_at: made.previous_secret_expires_at })
        }
      />
      <div className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm">
        <button
          type="button"
          aria-expanded={open}
          className="text-brand-700 underline-offset-2 hover:underline"
          onClick={() => setOpen((o) => !o)}
        >
          {t('developer.webhooks.deliveries')}
        </button>
      </div>
      {open ? <DeliveryLog id={endpoint.id} version={version} /> : null}
    </li>
  );
}

/** The profile's webhook endpoints: add, test, turn on/off, delete, read the delivery log. */
export function WebhooksCard() {
  const { t } = useTranslation();
  const { items, added, replaced, removed } = useOwnedList<Endpoint>(BASE);
  const { pending, error, fields, post } = useCreateForm();

  async function add(form: HTMLFormElement) {
    const data = new FormData(form);
    const made = await post<Endpoint>(BASE, {
      url: String(data.get('url') ?? ''),
      description: String(data.get('description') ?? ''),
      events: data.getAll('events').map(String),
    });
    if (!made) return;
    added(made);
    form.reset();
  }

  return (
    <div className="space-y-4" data-testid="webhooks">
      <p className="text-sm text-slate-600">{t('developer.webhooks.intro')}</p>
      <OwnedList items={items} none={t('developer.webhooks.none')}>
        {(e) => <EndpointItem key={e.id} endpoint={e} onChange={replaced} onDelete={() => removed(e.id)} />}
      </OwnedList>
      <form
        method="post"
        className="space-y-3"
        onSubmit={(e) => {
          e.preventDefault();
          void add(e.currentTarget);
        }}
      >
        <FormAlert message={error} />
        <Field
          label={t('developer.webhooks.url')}
          name="url"
          type="url"
          placeholder="https://example.com/hooks/clipscribe"
          required
          maxLength={2000}
          error={fields.url}
        />
        <Field label={t('developer.webhooks.description')} name="description" maxLength={200} />
        <fieldset>
          <legend className="text-sm font-medium text-slate-700">{t('developer.webhooks.events')}</legend>
          <div className="mt-1.5 flex flex-wrap gap-x-4 gap-y-1">
            {WEBHOOK_EVENTS.map((event) => (
              <label key={event} className="flex items-center gap-1.5 text-sm text-slate-800">
                <input type="checkbox" name="events" value={event} defaultChecked />
                {t(`developer.webhooks.eventNames.${event}`)}
              </label>
            ))}
          </div>
          {fields.events ? <p className="mt-1 text-sm text-red-600">{t(fields.events)}</p> : null}
        </fieldset>
        <CreateButton pending={pending}>{t('developer.webhooks.add')}</CreateButton>
      </form>
    </div>
  );
}
