import { useState } from 'react';
import { fieldKeysOf } from '../../../common/envelope';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { api } from '../../lib/api';
import { ApiClientError } from '../../lib/api-client';
import { Field } from '../form/field';

// A webhook's signing secret: shown once when it is made (creation, rotation), then only to a
// person who types the password again (docs/decisions/0032-outbound-addresses-and-webhook-secrets.md).

/** UTC, to the minute: the same text on the server and in the browser. */
const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

interface Rotated {
  secret?: string;
  previous_secret_expires_at: string | null;
}

export function WebhookSecret({
  path,
  initial,
  previousUntil,
  onRotated,
}: {
  /** The endpoint's API path (`/self-api/v1/webhooks/<id>`). */
  path: string;
  /** The secret when the endpoint was just made; otherwise it must be asked for. */
  initial: string | null;
  /** Until when the previous secret signs too (null: no overlap now). */
  previousUntil: string | null;
  onRotated: (endpoint: Rotated) => void;
}) {
  const { t } = useTranslation();
  const [secret, setSecret] = useState(initial);
  const [justMade, setJustMade] = useState(initial !== null);
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  async function reveal(form: HTMLFormElement) {
    setBusy(true);
    setError(undefined);
    try {
      const password = String(new FormData(form).get('password') ?? '');
      const got = await api.post<{ secret: string }>(`${path}/secret`, { password }, { handleErrors: true });
      setSecret(got.secret);
      setJustMade(false);
      setAsking(false);
    } catch (err) {
      if (err instanceof ApiClientError) {
        const fields = fieldKeysOf(err.data);
        setError(fields?.password ?? err.message);
      }
    } finally {
      setBusy(false);
    }
  }

  async function rotate() {
    if (!window.confirm(t('developer.webhooks.rotateAsk'))) return;
    setBusy(true);
    try {
      const made = await api.post<Rotated>(`${path}/rotate-secret`);
      setSecret(made.secret ?? null);
      setJustMade(true);
      setAsking(false);
      onRotated(made);
      if (made.previous_secret_expires_at)
        toast.success(t('developer.webhooks.rotated', { time: minute(made.previous_secret_expires_at) }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-1.5 text-sm" data-testid="webhook-secret-box">
      {secret ? (
        <div className="text-xs text-slate-600">
          {t('developer.webhooks.secret')}:{' '}
          <code className="break-all font-mono text-slate-900" data-testid="webhook-secret">
            {secret}
          </code>
          {justMade ? (
            <p className="mt-0.5 font-medium text-amber-800">{t('developer.webhooks.secretOnce')}</p>
          ) : null}
        </div>
      ) : null}
      {previousUntil ? (
        <p className="text-xs text-slate-600" data-testid="webhook-secret-overlap">
          {t('developer.webhooks.overlap', { time: minute(previousUntil) })}
        </p>
      ) : null}
      {asking ? (
        <form
          method="post"
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            void reveal(e.currentTarget);
          }}
        >
          <div className="min-w-0 flex-1 basis-56">
            <Field
              label={t('developer.webhooks.revealPassword')}
              hint={t('developer.webhooks.revealHint')}
              name="password"
              type="password"
              autoComplete="current-password"
              required
              autoFocus
              error={error}
            />
          </div>
          <div className="flex gap-2 pb-6">
            <button
              type="submit"
              disabled={busy}
              className="rounded-lg bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60"
            >
              {t('developer.webhooks.reveal')}
            </button>
            <button
              type="button"
              onClick={() => setAsking(false)}
              className="rounded-lg border border-slate-300 px-3 py-2 text-sm font-semibold text-slate-800"
            >
              {t('common.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <div className="flex flex-wrap gap-x-4 gap-y-1">
          {secret ? null : (
            <button
              type="button"
              className="text-brand-700 underline-offset-2 hover:underline"
              onClick={() => setAsking(true)}
            >
              {t('developer.webhooks.showSecret')}
            </button>
          )}
          <button
            type="button"
            disabled={busy}
            className="text-brand-700 underline-offset-2 hover:underline disabled:opacity-60"
            onClick={() => void rotate()}
          >
            {t('developer.webhooks.rotate')}
          </button>
        </div>
      )}
    </div>
  );
}
