import { toast } from 'sonner';
import i18next from 'i18next';
import { createApiClient } from './api-client';
import { planLimitAction } from '../../common/error-codes';
import { localizePath, splitLocalePath } from '../../common/locales';
import { messageValues } from '../../common/message-values';

/** /pricing in the language of the page the user is on. */
export function pricingPath(): string {
  return localizePath('/pricing', splitLocalePath(window.location.pathname).lang);
}

/** The id of the workspace settings' seats control, which a seats refusal's toast leads to. */
export const SEATS_ANCHOR = 'seats';

/** The seats control in the language of the page the user is on. */
function seatsPath(): string {
  return `${localizePath('/workspace', splitLocalePath(window.location.pathname).lang)}#${SEATS_ANCHOR}`;
}

/** A plan limit's toast carries the way past it: more seats on the plan, or another plan. */
function limitToast(message: string, code: number, data: unknown) {
  const action = planLimitAction(code, data);
  if (!action) return toast.error(message);
  return toast.error(message, {
    action:
      action === 'seats'
        ? {
            label: translateKey('workspaces.seats.manage'),
            onClick: () => window.location.assign(seatsPath()),
          }
        : { label: translateKey('billing.seePlans'), onClick: () => window.location.assign(pricingPath()) },
  });
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
  toast: limitToast,
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
    translator ?? ((k: string, v?: Record<string, unknown>) => (i18next.exists(k, v) ? i18next.t(k, v) : k));
  return t(key, values);
}
