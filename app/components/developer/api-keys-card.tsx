import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { api } from '../../lib/api';
import { useLocalePath } from '../../lib/use-locale';
import { formatDate } from '../../../common/format';
import { Field } from '../form/field';
import { FormAlert } from '../form/form-alert';
import { CreateButton, DangerButton, OwnedList, useCreateForm, useOwnedList } from './owned-list';
import type { ApiKeyScope } from '../../../common/record-states';

export interface ApiKeyItem {
  id: string;
  name: string;
  scope: ApiKeyScope;
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

const BASE = '/self-api/v1/api-keys';
const when = (iso: string) => formatDate(Math.floor(Date.parse(iso) / 1000));

/** The profile's API keys: create (the key is shown once), list by prefix, revoke. */
export function ApiKeysCard({ perMinute }: { perMinute: number }) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const { items, added, removed, cleared } = useOwnedList<ApiKeyItem>(BASE);
  const [fresh, setFresh] = useState<string | null>(null);
  const { pending, error, fields, post } = useCreateForm();

  async function create(form: HTMLFormElement) {
    const data = new FormData(form);
    const made = await post<ApiKeyItem & { key: string }>(BASE, {
      name: String(data.get('name') ?? ''),
      scope: String(data.get('scope') ?? 'full'),
    });
    if (!made) return;
    const { key, ...item } = made;
    added(item);
    setFresh(key);
    form.reset();
  }

  async function revoke(item: ApiKeyItem) {
    if (!window.confirm(t('developer.keys.revokeAsk', { name: item.name }))) return;
    await api.del(`${BASE}/${item.id}`);
    removed(item.id);
    toast.success(t('developer.keys.revoked'));
  }

  // Every key of the account, in every workspace (also offered with a password change or reset).
  async function revokeAll() {
    if (!window.confirm(t('developer.keys.revokeAllAsk'))) return;
    const { revoked } = await api.del<{ revoked: number }>(BASE);
    cleared();
    setFresh(null);
    toast.success(t('developer.keys.revokedAll', { count: revoked }));
  }

  return (
    <div className="space-y-4" data-testid="api-keys">
      <p className="text-sm text-slate-600">
        {t('developer.keys.intro')} {t('developer.keys.rate', { n: perMinute })}{' '}
        <a href={to('/api/docs')} className="font-medium text-brand-700 underline-offset-2 hover:underline">
          {t('developer.docs')}
        </a>
      </p>
      {fresh ? (
        <div className="rounded-lg border border-amber-300 bg-amber-50 p-3" role="status">
          <p className="text-sm font-medium text-amber-900">{t('developer.keys.createdNotice')}</p>
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <code
              className="min-w-0 flex-1 break-all rounded bg-white px-2 py-1.5 font-mono text-xs text-slate-900"
              data-testid="new-api-key"
            >
              {fresh}
            </code>
            <button
              type="button"
              className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800 hover:border-slate-400"
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(fresh)
                  .then(() => toast.success(t('common.copied')))
                  .catch(() => undefined)
              }
            >
              {t('common.copy')}
            </button>
          </div>
        </div>
      ) : null}
      <OwnedList items={items} none={t('developer.keys.none')}>
        {(k) => (
          <li key={k.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2.5">
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-slate-900">{k.name}</p>
              <p className="text-xs text-slate-500">
                <code className="font-mono">{k.prefix}…</code> · {t(`developer.keys.scopes.${k.scope}`)} ·{' '}
                {t('developer.keys.createdAt', { when: when(k.created_at) })} ·{' '}
                {k.last_used_at
                  ? t('developer.keys.lastUsed', { when: when(k.last_used_at) })
                  : t('developer.keys.neverUsed')}
              </p>
            </div>
            <DangerButton onClick={() => void revoke(k)}>{t('developer.keys.revoke')}</DangerButton>
          </li>
        )}
      </OwnedList>
      {items && items.length > 0 ? (
        <DangerButton onClick={() => void revokeAll()}>{t('developer.keys.revokeAll')}</DangerButton>
      ) : null}
      <form
        method="post"
        className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-end"
        onSubmit={(e) => {
          e.preventDefault();
          void create(e.currentTarget);
        }}
      >
        <div className="sm:col-span-3">
          <FormAlert message={error} />
        </div>
        <Field
          label={t('developer.keys.name')}
          name="name"
          placeholder={t('developer.keys.namePlaceholder')}
          maxLength={80}
          required
          error={fields.name}
        />
        <label className="block text-sm font-medium text-slate-700">
          {t('developer.keys.scope')}
          <select
            name="scope"
            defaultValue="full"
            className="mt-1.5 block w-full rounded-lg border border-slate-300 px-3 py-2.5 text-sm"
          >
            <option value="full">{t('developer.keys.scopes.full')}</option>
            <option value="read">{t('developer.keys.scopes.read')}</option>
          </select>
        </label>
        <CreateButton pending={pending}>{t('developer.keys.create')}</CreateButton>
      </form>
    </div>
  );
}
