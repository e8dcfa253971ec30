import { useEffect, useState, type ReactNode } from 'react';
import { fieldKeysOf } from '../../../common/envelope';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { ApiClientError } from '../../lib/api-client';

// What the profile's developer cards (API keys, webhooks) share: a list of the user's own
// items loaded once and then changed in place, and a create form that shows the server's
// refusal above it and on its fields.

/** The items at `path` (`{ items }`); null while loading, empty when the load failed. */
export function useOwnedList<T extends { id: string }>(path: string) {
  const [items, setItems] = useState<T[] | null>(null);
  useEffect(() => {
    void api
      .get<{ items: T[] }>(path)
      .then((d) => setItems(d.items))
      .catch(() => setItems([]));
  }, [path]);
  return {
    items,
    added: (item: T) => setItems((list) => [...(list ?? []), item]),
    replaced: (item: T) => setItems((list) => (list ?? []).map((x) => (x.id === item.id ? item : x))),
    removed: (id: string) => setItems((list) => (list ?? []).filter((x) => x.id !== id)),
    cleared: () => setItems([]),
  };
}

/**
 * Posts a create form: the created item, or null when refused (the message and field errors kept).
 * Refusals `toasted` picks are left to the API client's toast instead (one with an action).
 */
export function useCreateForm(opts: { toasted?: (code: number) => boolean } = {}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [fields, setFields] = useState<Record<string, string>>({});
  const toasted = opts.toasted ?? (() => false);
  async function post<R>(path: string, body: unknown): Promise<R | null> {
    setPending(true);
    setError(null);
    setFields({});
    try {
      return await api.post<R>(path, body, { handleErrors: (code) => !toasted(code) });
    } catch (err) {
      if (err instanceof ApiClientError && !toasted(err.code)) {
        setError(err.message);
        setFields(fieldKeysOf(err.data) ?? {});
      }
      return null;
    } finally {
      setPending(false);
    }
  }
  return { pending, error, fields, post };
}

/** "Loading", the empty text, or the items as a bordered list. */
export function OwnedList<T>({
  items,
  none,
  children,
}: {
  items: T[] | null;
  none: string;
  children: (item: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (items === null) return <p className="text-sm text-slate-500">{t('common.loading')}</p>;
  if (items.length === 0) return <p className="text-sm text-slate-500">{none}</p>;
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">{items.map(children)}</ul>
  );
}

/** The red outlined button that revokes or deletes an item. */
export function DangerButton({ onClick, children }: { onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="rounded-lg border border-red-200 px-3 py-1.5 text-sm font-semibold text-red-700 hover:bg-red-50"
    >
      {children}
    </button>
  );
}

/** The create form's button, busy while the form posts. */
export function CreateButton({ pending, children }: { pending: boolean; children: ReactNode }) {
  return (
    <button
      type="submit"
      disabled={pending}
      aria-busy={pending}
      className="rounded-lg bg-brand-600 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-brand-700 disabled:opacity-70"
    >
      {children}
    </button>
  );
}
