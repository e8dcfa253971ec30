import { data, redirect } from 'react-router';
import type { ApiAnswer, ServerContext } from '../../common/app-context';
import { collapseSlashes } from '../../common/guard';
import { fieldKeysOf, messageKeyOf } from '../../common/envelope';

// Forms post (never GET: a password must not end up in the address bar or a log). Once the page
// is hydrated, useApiForm sends them with fetch; a form submitted before that reaches the route's
// action, which hands the same fields to the same API call on the server (postedForm) and
// answers with a redirect or the page again with the errors (PostedFailure).

/** What the page shows after a form posted without JavaScript failed. */
export interface PostedFailure {
  code: number;
  /** An i18n key; `values` fills its placeholders. */
  message: string;
  values: Record<string, unknown> | null;
  fields: Record<string, string>;
  /** What the visitor typed that may be shown again (never a password or code). */
  kept: Record<string, string>;
}

export type PostedAnswer = ApiAnswer & { sent: Record<string, string> };

const KEPT_FIELDS = ['email', 'name'];

/** Sends a posted form's text fields to one API call, as the visitor. */
export async function postedForm(
  request: Request,
  context: ServerContext,
  path: string,
  method: 'POST' | 'PUT' = 'POST',
): Promise<PostedAnswer> {
  const form = await request.formData();
  const body: Record<string, string> = {};
  for (const [key, value] of form) if (typeof value === 'string') body[key] = value;
  return { ...(await context.callApi(method, path, body)), sent: body };
}

/** A redirect that carries the API answer's cookies (e.g. the new session). */
export function redirectWithCookies(to: string, answer: ApiAnswer): Response {
  const headers = new Headers();
  for (const cookie of answer.setCookies) headers.append('Set-Cookie', cookie);
  return redirect(to, { status: 303, headers });
}

/** The page again, with the API's error on the form. */
export function postedFailure(answer: PostedAnswer) {
  const raw = answer.envelope.data;
  const values = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : null;
  const fields = fieldKeysOf(values) ?? {};
  const kept: Record<string, string> = {};
  for (const key of KEPT_FIELDS) if (answer.sent[key]) kept[key] = answer.sent[key];
  const { code } = answer.envelope;
  const message = messageKeyOf(answer.envelope) ?? 'errors.requestError';
  const failure: PostedFailure = { code, message, values, fields, kept };
  return data(failure, { status: answer.status >= 400 ? answer.status : 400 });
}

/**
 * For pages whose forms need the page's scripts: a form posted before they ran comes back to
 * the same page (post/redirect/get), with nothing sent anywhere and nothing in the address.
 */
export function reloadAction({ request }: { request: Request }): Response {
  const url = new URL(request.url);
  return redirect(collapseSlashes(url.pathname) + url.search, 303);
}
