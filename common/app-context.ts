import type { FolderJson } from './folder-types';
import type { PlansJson } from './plans';
import type { Locale } from './locales';
import type { FooterToolsJson, ToolPageJson } from './tool-content';
import type { LegalDoc, LegalDocJson } from './legal-content';
import type { SharedTranscriptJson, TranscriptJson } from './transcript-types';
import type { WorkspaceJson } from './workspace-types';

// What the server hands to route loaders. app/ sees only this contract, never server code.
export interface PublicConfig {
  appName: string;
  apiBaseUrl: string;
  publicUrl: string | null;
  gtmId: string | null;
  googleClientId: string | null;
  buildId: string;
  /** The affiliate programme's terms (configurable), for the pages that state them. */
  affiliate: { percent: number; windowMonths: number; holdDays: number; minPayout: number };
}

export interface Viewer {
  id: string;
  email: string;
  name: string | null;
  rank_name: string;
  language: string;
  /** The workspace the pages work in (decision 0027), with the viewer's role there. */
  workspace: WorkspaceJson;
  /** Every workspace the viewer belongs to, personal first: the header's switcher. */
  workspaces: WorkspaceJson[];
}

/** One of this server's API answers, as a form posted without JavaScript receives it. */
export interface ApiAnswer {
  status: number;
  envelope: { code: number; message: string; message_key?: string; data: unknown };
  /** The answer's Set-Cookie headers (a login's session), for the page's response. */
  setCookies: string[];
}

// A type alias (not an interface) so it fits React Router's indexable AppLoadContext.
export type ServerContext = {
  requestId: string;
  /** This response's Content-Security-Policy nonce, for the page's inline scripts. */
  cspNonce: string;
  config: PublicConfig;
  /** The login state of this request (reads the session). */
  getViewer(): Promise<Viewer | null>;
  /** The viewer's own transcript with its segments, or null (missing or someone else's). */
  getTranscript(id: string): Promise<TranscriptJson | null>;
  /** The viewer's own folder, or null (missing or someone else's). */
  getFolder(id: string): Promise<FolderJson | null>;
  /** The transcript behind a public share link (counts a view), or null for any bad link. */
  getSharedTranscript(id: string, shareId: string): Promise<SharedTranscriptJson | null>;
  /** Why a link that once worked no longer does (revoked or expired), or null. */
  getClosedShare(id: string, shareId: string): Promise<'revoked' | 'expired' | null>;
  /** Every plan with its prices, and whether online payment is configured. */
  getPlans(): Promise<PlansJson>;
  /** A /tools landing page in one language, or null. */
  getToolPage(lang: Locale, slug: string): Promise<ToolPageJson | null>;
  /** The footer's tool links for one language, grouped. */
  getFooterTools(lang: Locale): Promise<FooterToolsJson>;
  /** A legal text in one language, or null. */
  getLegal(doc: LegalDoc, lang: Locale): Promise<LegalDocJson | null>;
  /**
   * Runs this server's own API call for the visitor (the same checks as the browser's fetch):
   * how a form posted before hydration does its work in the route's action.
   */
  callApi(method: 'POST' | 'PUT', path: string, body: Record<string, unknown>): Promise<ApiAnswer>;
  /**
   * Where a visit to `address` (path and query) must go instead — route rules, then the
   * language — with the cookies to set; null to stay. The same decision as for a page load, so
   * client-side navigations follow it too.
   */
  pageRedirect(address: string): Promise<{ location: string; status: 301 | 302; cookies: string[] } | null>;
};
