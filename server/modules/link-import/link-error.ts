/**
 * Why a link import failed; each code is a translated reason (errors.media.<code>) on the failed
 * transcript. `transient` failures (the network, a 5xx) are tried again before they stick.
 */
export type LinkFailureCode =
  | 'link_too_large'
  | 'link_too_long'
  | 'link_quota'
  | 'link_not_media'
  | 'link_unreachable'
  | 'link_http_error'
  | 'link_blocked'
  | 'link_timeout'
  | 'link_redirects'
  | 'link_page_failed'
  /** Whoever asked for it left the workspace, lost the right to add recordings, or was deleted. */
  | 'link_requester_gone';

export class LinkError extends Error {
  constructor(
    readonly code: LinkFailureCode,
    message: string,
    readonly transient = false,
  ) {
    super(message);
    this.name = 'LinkError';
  }
}
