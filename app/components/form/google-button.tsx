import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { useRootData } from '../../lib/use-locale';
import { GOOGLE_SCRIPT_ERROR, loadGoogleIdentity, requestGoogleCode } from '../../lib/google-identity';
import { api } from '../../lib/api';
import { writeUserState, type UserPayload } from '../../lib/user-state';

/**
 * Hidden when no Google client ID is configured. Otherwise the Identity Services script is
 * loaded once (in the browser only) and the button renders when it is ready.
 */
export function GoogleButton({ onSuccess }: { onSuccess: () => void }) {
  const { t } = useTranslation();
  const clientId = useRootData()?.config.googleClientId;
  const [pending, setPending] = useState(false);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (!clientId) return;
    let live = true;
    loadGoogleIdentity()
      .then(() => live && setReady(true))
      .catch(() => toast.error(t('errors.auth.googleScript')));
    return () => {
      live = false;
    };
  }, [clientId, t]);
  if (!clientId || !ready) return null;
  const click = async () => {
    setPending(true);
    try {
      const code = await requestGoogleCode(clientId);
      const payload = await api.post<UserPayload>('/common-api/v1/auth-google/login', { code });
      writeUserState(payload);
      onSuccess();
    } catch (err) {
      if (err instanceof Error && err.message === GOOGLE_SCRIPT_ERROR)
        toast.error(t('errors.auth.googleScript'));
    } finally {
      setPending(false);
    }
  };
  return (
    <>
      <div className="my-5 flex items-center gap-3 text-xs uppercase text-slate-400">
        <span className="h-px flex-1 bg-slate-200" />
        {t('auth.or')}
        <span className="h-px flex-1 bg-slate-200" />
      </div>
      <button
        type="button"
        onClick={() => void click()}
        disabled={pending}
        className="flex w-full items-center justify-center gap-3 rounded-lg border border-slate-300 bg-white px-4 py-2.5 text-sm font-semibold text-slate-700 hover:bg-slate-50 disabled:opacity-60"
        data-testid="google-button"
      >
        <svg viewBox="0 0 48 48" className="h-5 w-5" aria-hidden>
          <path
            fill="#FFC107"
            d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5z"
          />
          <path
            fill="#FF3D00"
            d="M6.3 14.7l6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7z"
          />
          <path
            fill="#4CAF50"
            d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-8l-6.5 5C9.5 39.6 16.2 44 24 44z"
          />
          <path
            fill="#1976D2"
            d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C36.9 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5z"
          />
        </svg>
        {t('auth.google')}
      </button>
    </>
  );
}
