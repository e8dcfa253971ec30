import { useEffect, useMemo } from 'react';
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useNavigation,
  type ShouldRevalidateFunctionArgs,
} from 'react-router';
import { I18nextProvider } from 'react-i18next';
import { Toaster } from 'sonner';
import NProgress from 'nprogress';
import { isbot } from 'isbot';
import type { Route } from './+types/root';
import { LOCALE_TAGS, DEFAULT_LOCALE, localeParam } from '../common/locales';
import { createI18n } from './lib/i18n';
import { loadMessages } from './lib/messages.server';
import { useRootData } from './lib/use-locale';
import {
  BUILD_CHECK_INTERVAL_MS,
  checkBuild,
  isBuildStale,
  isChunkLoadError,
  reloadOnce,
} from './lib/build-watcher';
import { configureApi, setApiTranslator } from './lib/api';
import { ErrorView } from './components/layout/error-view';
import { useNonce } from './lib/nonce';
import en from './locales/en.json';
// Inlined: one render-blocking request fewer on every first visit (bench/lighthouse.ts).
import appCss from './app.css?inline';

NProgress.configure({ minimum: 0.4, speed: 500, trickleSpeed: 200, easing: 'ease-in', showSpinner: false });

export async function loader({ params, context, request }: Route.LoaderArgs) {
  const lang = localeParam(params.lang);
  // Canonical and hreflang links must be absolute: without PUBLIC_URL, this request's origin.
  const publicUrl = context.config.publicUrl ?? new URL(request.url).origin;
  // English is in the client bundle already; only other languages travel with the page.
  const messages = lang === DEFAULT_LOCALE ? null : await loadMessages(lang);
  // Decided from the request, so the server-rendered page already hides what crawlers must not see.
  const crawler = isbot(request.headers.get('user-agent') ?? '');
  return { lang, messages, crawler, config: { ...context.config, publicUrl } };
}

// Messages change only with the language; the login guard revalidates on its own route.
export function shouldRevalidate({ currentParams, nextParams, formMethod }: ShouldRevalidateFunctionArgs) {
  return currentParams.lang !== nextParams.lang || (formMethod !== undefined && formMethod !== 'GET');
}

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useRootData();
  const lang = data?.lang ?? DEFAULT_LOCALE;
  const gtm = data?.config.gtmId;
  const nonce = useNonce();
  return (
    <html lang={LOCALE_TAGS[lang]}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#2563eb" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <Meta />
        <style dangerouslySetInnerHTML={{ __html: appCss }} />
        <Links />
        {gtm ? (
          <script
            nonce={nonce}
            // The tag manager id is validated as GTM-[A-Z0-9]+ at start, so it is safe to inline.
            // Google's nonce-aware snippet: gtm.js gets this nonce and passes it to its tags.
            dangerouslySetInnerHTML={{
              __html: `(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});var f=d.getElementsByTagName(s)[0],j=d.createElement(s),dl=l!='dataLayer'?'&l='+l:'';j.async=true;j.src='https://www.googletagmanager.com/gtm.js?id='+i+dl;var n=d.querySelector('[nonce]');n&&j.setAttribute('nonce',n.nonce||n.getAttribute('nonce'));f.parentNode.insertBefore(j,f);})(window,document,'script','dataLayer','${gtm}');`,
            }}
          />
        ) : null}
      </head>
      <body className="min-h-screen">
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function useNavigationProgress() {
  const navigation = useNavigation();
  useEffect(() => {
    if (navigation.state === 'idle') NProgress.done();
    else NProgress.start();
  }, [navigation.state]);
}

function useBuildWatcher(buildId: string | undefined) {
  const navigation = useNavigation();
  useEffect(() => {
    if (!buildId) return;
    void checkBuild(buildId);
    const timer = setInterval(() => void checkBuild(buildId), BUILD_CHECK_INTERVAL_MS);
    const onVisible = () => document.visibilityState === 'visible' && void checkBuild(buildId);
    document.addEventListener('visibilitychange', onVisible);
    const onPreloadError = (e: Event) => {
      e.preventDefault();
      reloadOnce(window.location.href);
    };
    window.addEventListener('vite:preloadError', onPreloadError);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('vite:preloadError', onPreloadError);
    };
  }, [buildId]);
  useEffect(() => {
    const to = navigation.location;
    if (navigation.state === 'loading' && to && isBuildStale()) {
      reloadOnce(to.pathname + to.search + to.hash);
    }
  }, [navigation.state, navigation.location]);
}

export default function App({ loaderData }: Route.ComponentProps) {
  const { lang, messages, config } = loaderData;
  const i18n = useMemo(() => createI18n(lang, messages ?? en), [lang, messages]);
  useEffect(() => {
    configureApi(config.apiBaseUrl);
    // The data goes to exists() too: a plural message (seatsFull_one/_other) exists only with its count.
    setApiTranslator((key, data) => (i18n.exists(key, data) ? i18n.t(key, data) : key));
  }, [config.apiBaseUrl, i18n]);
  useEffect(() => {
    window.dispatchEvent(new CustomEvent('i18n:switched', { detail: { lang } }));
  }, [lang]);
  useNavigationProgress();
  useBuildWatcher(config.buildId);
  return (
    <I18nextProvider i18n={i18n}>
      <Outlet />
      <Toaster duration={3000} offset={16} position="top-center" richColors closeButton />
    </I18nextProvider>
  );
}

/** Last-resort boundary, used only when the root itself failed; the language route has its own. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRootData();
  const i18n = useMemo(() => createI18n(data?.lang ?? DEFAULT_LOCALE, data?.messages ?? en), [data]);
  useEffect(() => {
    if (isChunkLoadError(error)) reloadOnce(window.location.href);
  }, [error]);
  return (
    <I18nextProvider i18n={i18n}>
      <ErrorView error={error} />
    </I18nextProvider>
  );
}
