import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Route } from './+types/invitation';
import { pageMeta } from '../../lib/meta';
import { PageFrame } from '../../components/layout/page-frame';
import { FormAlert } from '../../components/form/form-alert';
import { api } from '../../lib/api';
import { ApiClientError } from '../../lib/api-client';
import { useFormat } from '../../lib/use-format';
import { useLocalePath } from '../../lib/use-locale';
import { useViewer } from '../../lib/use-viewer';
import { clearUserState } from '../../lib/user-state';
import { reloadAction } from '../../lib/form-action';
import type { InvitationPreviewJson, WorkspaceJson } from '../../../common/workspace-types';

export const action = reloadAction;

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.invitation.title', { noindex: true });

const button =
  'rounded-lg px-4 py-2.5 text-sm font-semibold shadow-sm disabled:opacity-60 inline-flex justify-center';
const primary = `${button} bg-brand-600 text-white hover:bg-brand-700`;
const secondary = `${button} border border-slate-300 bg-white text-slate-800 hover:border-slate-400`;

/**
 * Where an invitation link leads: what it is for, then accept or decline for the invited account,
 * sign-in or sign-up for a visitor, and a way to switch accounts for anyone else.
 */
export default function Invitation() {
  const { t } = useTranslation();
  const fmt = useFormat();
  const lp = useLocalePath();
  const viewer = useViewer();
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [invitation, setInvitation] = useState<InvitationPreviewJson | null | 'invalid'>(
    token ? null : 'invalid',
  );
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    if (!token) return;
    api
      .get<InvitationPreviewJson>('/self-api/v1/invitations/preview', { token }, { handleErrors: true })
      .then(setInvitation)
      .catch(() => setInvitation('invalid'));
  }, [token]);

  const heading = t('workspaces.invitation.heading');
  if (invitation === 'invalid') {
    return (
      <PageFrame heading={heading} width="max-w-xl">
        <p
          className="rounded-xl border border-slate-200 bg-white p-5 text-slate-700"
          data-testid="invitation-invalid"
        >
          {t('errors.workspaces.invitationInvalid')}
        </p>
      </PageFrame>
    );
  }
  if (invitation === null)
    return <PageFrame heading={heading} width="max-w-xl" subtitle={t('common.loading')} />;

  const here = `${lp('/invitation')}?token=${encodeURIComponent(token)}`;
  const answer = (kind: 'accept' | 'decline') => {
    setPending(true);
    setError(null);
    api
      .post<{ workspace: WorkspaceJson }>(
        `/self-api/v1/invitations/${kind}`,
        { token },
        { handleErrors: true },
      )
      .then(() => {
        if (kind === 'accept') {
          toast.success(t('workspaces.invitation.accepted', { workspace: invitation.workspace.name ?? '' }));
          window.location.assign(lp('/dashboard'));
        } else {
          toast.success(t('workspaces.invitation.declined'));
          setInvitation('invalid');
        }
      })
      .catch((err: unknown) => setError(err instanceof ApiClientError ? err.message : null))
      .finally(() => setPending(false));
  };
  const inviter = invitation.invited_by?.name || invitation.invited_by?.email || '';
  const mine = viewer && viewer.email === invitation.email;
  return (
    <PageFrame heading={heading} width="max-w-xl">
      <section
        className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 sm:p-6"
        data-testid="invitation"
      >
        <p className="text-slate-800">
          {t('workspaces.invitation.text', {
            inviter,
            email: invitation.email,
            workspace: invitation.workspace.name ?? '',
            role: t(`workspaces.roles.${invitation.role}`),
          })}
        </p>
        <p className="text-sm text-slate-500">
          {t(`workspaces.roleHints.${invitation.role}`)} ·{' '}
          {t('workspaces.invitation.validUntil', { when: fmt.isoDate(invitation.expires_at) })}
        </p>
        <FormAlert message={error} />
        {mine ? (
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              className={primary}
              disabled={pending}
              onClick={() => answer('accept')}
              data-testid="invitation-accept"
            >
              {t('workspaces.invitation.accept')}
            </button>
            <button
              type="button"
              className={secondary}
              disabled={pending}
              onClick={() => answer('decline')}
              data-testid="invitation-decline"
            >
              {t('workspaces.invitation.decline')}
            </button>
          </div>
        ) : viewer ? (
          <>
            <p className="text-sm text-slate-700">
              {t('workspaces.invitation.otherAccount', { me: viewer.email, email: invitation.email })}
            </p>
            <button
              type="button"
              className={secondary}
              onClick={() => {
                void api
                  .del('/common-api/v1/logout', undefined, { handleErrors: true })
                  .catch(() => undefined)
                  .finally(() => {
                    clearUserState();
                    window.location.assign(`${lp('/login')}?from=${encodeURIComponent(here)}`);
                  });
              }}
            >
              {t('workspaces.invitation.signOut')}
            </button>
          </>
        ) : (
          <>
            <p className="text-sm text-slate-700">
              {t('workspaces.invitation.signInText', { email: invitation.email })}
            </p>
            <div className="flex flex-wrap gap-3">
              <Link
                to={`${lp('/login')}?from=${encodeURIComponent(here)}`}
                className={primary}
                data-testid="invitation-sign-in"
              >
                {t('workspaces.invitation.signIn')}
              </Link>
              <Link
                to={`${lp('/register')}?email=${encodeURIComponent(invitation.email)}`}
                className={secondary}
                data-testid="invitation-sign-up"
              >
                {t('workspaces.invitation.signUp')}
              </Link>
            </div>
          </>
        )}
      </section>
    </PageFrame>
  );
}
