import { toast } from 'sonner';
import i18next from 'i18next';
import { createApiClient } from './api-client';

let baseUrl = '';

export function configureApi(url: string) {
  baseUrl = url;
}

/** The browser's API client: toasts through sonner, translates message keys. */
export const api = createApiClient({
  get baseUrl() {
    return baseUrl;
  },
  fetch: (...args) => fetch(...args),
  currentPath: () => window.location.pathname + window.location.search + window.location.hash,
  toast: (m) => toast.error(m),
  navigate: (url) => window.location.assign(url),
  translate: (key) => translateKey(key),
});

let translator: ((key: string) => string) | null = null;

export function setApiTranslator(t: (key: string) => string) {
  translator = t;
}

function translateKey(key: string): string {
  const t = translator ?? ((k: string) => (i18next.exists(k) ? i18next.t(k) : k));
  return t(key);
}
