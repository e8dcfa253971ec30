import { loginRedirect } from '../../common/guard';
import { messageKeyOf, type Envelope } from '../../common/envelope';
import { PAGE_LANG_HEADER, splitLocalePath } from '../../common/locales';

// The UI's one way to call the API (docs/product.md#the-api): envelope {code, message, data}, 10 s time-out,
// credentials included, errors shown unless the caller says it handles them.
export const REQUEST_TIMEOUT_MS = 10_000;

export class ApiClientError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | boolean | null | undefined>;
  body?: unknown;
  form?: FormData;
  /** When true (or true for the error's code) the caller shows its own error; nothing is displayed here. */
  handleErrors?: boolean | ((code: number) => boolean);
  signal?: AbortSignal;
  /** A longer wait than REQUEST_TIMEOUT_MS for a call that runs a model in the request. */
  timeoutMs?: number;
}

export interface ApiClientDeps {
  baseUrl: string;
  fetch: typeof fetch;
  /** Bearer token for API clients that have one (the session cookie is httpOnly). */
  getToken?: () => string | null;
  currentPath: () => string;
  /** Shows an error; `code` and `data` let the caller add an action (e.g. plan limits → /pricing). */
  toast: (message: string, code: number, data: unknown) => void;
  navigate: (url: string) => void;
  translate: (keyOrText: string, data?: unknown) => string;
  timeoutMs?: number;
}

export function createApiClient(deps: ApiClientDeps) {
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;

  function fail(code: number, message: string, data: unknown, handle: RequestOptions['handleErrors']): never {
    const text = deps.translate(message, data);
    if (!(typeof handle === 'function' ? handle(code) : handle)) {
      if (code === 401 || code === 403) deps.navigate(loginRedirect(deps.currentPath()));
      else deps.toast(text, code, data);
    }
    throw new ApiClientError(code, text, data);
  }

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const url = new URL(deps.baseUrl + path, 'http://relative.invalid');
    for (const [k, v] of Object.entries(opts.query ?? {})) {
      if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    }
    const href = url.origin === 'http://relative.invalid' ? url.pathname + url.search : url.href;
    // The page's language: what a sign-up makes the account's language, what mails are written in.
    const headers: Record<string, string> = {
      Accept: 'application/json',
      [PAGE_LANG_HEADER]: splitLocalePath(new URL(deps.currentPath(), 'http://x.invalid').pathname).lang,
    };
    const token = deps.getToken?.();
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: BodyInit | undefined;
    if (method !== 'GET' && method !== 'HEAD') {
      if (opts.form) body = opts.form;
      else {
        headers['Content-Type'] = 'application/json';
        body = JSON.stringify(opts.body ?? {});
      }
    }
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
    let res: Response;
    try {
      res = await deps.fetch(href, { method, headers, body, credentials: 'include', signal });
    } catch {
      return fail(0, 'errors.requestError', null, opts.handleErrors);
    }
    let envelope: Partial<Envelope<T>> | null = null;
    try {
      envelope = (await res.json()) as Partial<Envelope<T>>;
    } catch {
      envelope = null;
    }
    if (envelope && typeof envelope.code === 'number') {
      if (envelope.code === 200) return envelope.data as T;
      return fail(
        envelope.code,
        messageKeyOf(envelope) ?? res.statusText,
        envelope.data ?? null,
        opts.handleErrors,
      );
    }
    if (!res.ok) return fail(res.status, res.statusText || 'errors.requestError', null, opts.handleErrors);
    return fail(res.status, 'errors.requestError', null, opts.handleErrors);
  }

  return {
    request,
    get: <T>(path: string, query?: RequestOptions['query'], opts?: RequestOptions) =>
      request<T>('GET', path, { ...opts, query }),
    post: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('POST', path, { ...opts, body }),
    patch: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PATCH', path, { ...opts, body }),
    put: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('PUT', path, { ...opts, body }),
    del: <T>(path: string, body?: unknown, opts?: RequestOptions) =>
      request<T>('DELETE', path, { ...opts, body }),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
