import { createContext, useContext } from 'react';

// The Content-Security-Policy nonce of this response (made by server/http/security-headers.ts,
// handed to the renderer as context.cspNonce). Every inline script the page renders takes it
// from here, so there is one place that writes it. In the browser the hydrated page reads the
// value the server rendered (scripts expose it as the `nonce` property only).
export const NonceContext = createContext<string | undefined>(undefined);

function renderedNonce(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  return document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce || undefined;
}

export function useNonce(): string | undefined {
  return useContext(NonceContext) ?? renderedNonce();
}
