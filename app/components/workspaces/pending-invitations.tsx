import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { api } from '../../lib/api';
import { useLocalePath } from '../../lib/use-locale';
import type { PendingInvitationJson } from '../../../common/workspace-types';

/**
 * Invitations waiting for the signed-in account (addressed to its verified address): how an
 * invitee who signed up after the mail finds theirs.
 */
export function PendingInvitations() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const [items, setItems] = useState<PendingInvitationJson[]>([]);
  useEffect(() => {
    void api
      .get<{ items: PendingInvitationJson[] }>('/self-api/v1/invitations', undefined, { handleErrors: true })
      .then((d) => setItems(d.items))
      .catch(() => undefined);
  }, []);
  if (items.length === 0) return null;
  const answer = (item: PendingInvitationJson, kind: 'accept' | 'decline') =>
    void api.post(`/self-api/v1/invitations/${kind}`, { id: item.id }).then(() => {
      if (kind === 'accept') {
        toast.success(t('workspaces.invitation.accepted', { workspace: item.workspace.name ?? '' }));
        window.location.assign(lp('/dashboard'));
      } else {
        toast.success(t('workspaces.invitation.declined'));
        setItems((list) => list.filter((i) => i.id !== item.id));
      }
    });
  return (
    <section
      className="mb-6 rounded-xl border border-brand-200 bg-brand-50/60 p-4"
      data-testid="pending-invitations"
    >
      <h2 className="text-sm font-semibold text-slate-900">{t('workspaces.invitation.pendingHeading')}</h2>
      <ul className="mt-2 space-y-2">
        {items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-slate-800">
              {t('workspaces.invitation.pendingItem', {
                inviter: item.invited_by?.name || item.invited_by?.email || '',
                workspace: item.workspace.name ?? '',
                role: t(`workspaces.roles.${item.role}`),
              })}
            </p>
            <div className="flex gap-2">
              <button
                type="button"
                className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700"
                onClick={() => answer(item, 'accept')}
                data-testid="pending-accept"
              >
                {t('workspaces.invitation.accept')}
              </button>
              <button
                type="button"
                className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-semibold text-slate-800"
                onClick={() => answer(item, 'decline')}
              >
                {t('workspaces.invitation.decline')}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
