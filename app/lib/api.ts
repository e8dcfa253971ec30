import { toast } from 'sonner';
import i18next from 'i18next';
import { createApiClient } from './api-client';
import { isPlanLimit } from '../../common/error-codes';
import { localizePath, splitLocalePath } from '../../common/locales';
import { messageValues } from '../../common/message-values';

/** /pricing in the language of the page the user is on. */
export function pricingPath(): string {
  return localizePath('/pricing', splitLocalePath(window.location.pathname).lang);
}

let baseUrl = '';

export function configureApi(url: string) {
  baseUrl = url;
}

/**
 * The address of an API path for calls made outside the client (event streams, tus uploads):
 * API_BASE_URL + path. Such calls must send the session too (withCredentials) when it is
 * another origin (decision 0021).
 */
export function apiUrl(path: string): string {
  return baseUrl.replace(/\/$/, '') + path;
}

/** The browser's API client: toasts through sonner, translates message keys. */
export const api = createApiClient({
  get baseUrl() {
    return baseUrl;
  },
  fetch: (...args) => fetch(...args),
  currentPath: () => window.location.pathname + window.location.search + window.location.hash,
  toast: (m, code) =>
    isPlanLimit(code)
      ? toast.error(m, {
          action: {
            label: translateKey('billing.seePlans'),
            onClick: () => window.location.assign(pricingPath()),
          },
        })
      : toast.error(m),
  navigate: (url) => window.location.assign(url),
  translate: (key, data) => translateKey(key, data),
});

let translator: ((key: string, data?: Record<string, unknown>) => string) | null = null;

export function setApiTranslator(t: (key: string, data?: Record<string, unknown>) => string) {
  translator = t;
}

/** Message keys are translated with the envelope's data as placeholders ({{limit_size}} …). */
function translateKey(key: string, data?: unknown): string {
  const values = messageValues(splitLocalePath(window.location.pathname).lang, data);
  const t =
    translator ?? ((k: string, v?: Record<string, unknown>) => (i18next.exists(k) ? i18next.t(k, v) : k));
  return t(key, values);
}
