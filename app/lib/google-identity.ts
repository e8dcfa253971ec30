// Google Identity Services, loaded once in the browser (never on the server), popup code mode.
const SCRIPT = 'https://accounts.google.com/gsi/client';
export const GOOGLE_SCRIPT_ERROR = 'Failed to load the Google 3P Authorization JavaScript Library.';

interface CodeClient {
  requestCode(): void;
}
interface GoogleGlobal {
  accounts: {
    oauth2: {
      initCodeClient(config: {
        client_id: string;
        scope: string;
        ux_mode: 'popup';
        callback: (response: { code?: string; error?: string }) => void;
        error_callback?: (error: { type: string }) => void;
      }): CodeClient;
    };
  };
}

let loading: Promise<GoogleGlobal> | null = null;

export function loadGoogleIdentity(): Promise<GoogleGlobal> {
  if (typeof window === 'undefined')
    return Promise.reject(new Error('Google sign-in cannot run on the server'));
  const existing = (window as unknown as { google?: GoogleGlobal }).google;
  if (existing?.accounts?.oauth2) return Promise.resolve(existing);
  loading ??= new Promise<GoogleGlobal>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = SCRIPT;
    script.async = true;
    script.defer = true;
    script.onload = () => {
      const g = (window as unknown as { google?: GoogleGlobal }).google;
      if (g?.accounts?.oauth2) resolve(g);
      else reject(new Error(GOOGLE_SCRIPT_ERROR));
    };
    script.onerror = () => {
      loading = null;
      script.remove();
      reject(new Error(GOOGLE_SCRIPT_ERROR));
    };
    document.head.appendChild(script);
  });
  return loading;
}

/** Opens Google's popup and resolves with the authorization code. */
export async function requestGoogleCode(clientId: string): Promise<string> {
  if (!clientId) throw new Error('Google client ID is not configured');
  const google = await loadGoogleIdentity();
  return new Promise<string>((resolve, reject) => {
    const client = google.accounts.oauth2.initCodeClient({
      client_id: clientId,
      scope: 'openid email profile',
      ux_mode: 'popup',
      callback: (r) => (r.code ? resolve(r.code) : reject(new Error(r.error ?? 'google_error'))),
      error_callback: (e) => reject(new Error(e.type)),
    });
    client.requestCode();
  });
}
