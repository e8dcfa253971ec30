import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { Route } from './+types/settings';
import { pageMeta } from '../../lib/meta';
import { PageFrame } from '../../components/layout/page-frame';
import { Field } from '../../components/form/field';
import { FormAlert } from '../../components/form/form-alert';
import { CreateButton, DangerButton, useCreateForm } from '../../components/developer/owned-list';
import { LocaleOptions } from '../../components/layout/language-switcher';
import { api } from '../../lib/api';
import { ApiClientError } from '../../lib/api-client';
import { useFormat } from '../../lib/use-format';
import { useLocale, useLocalePath } from '../../lib/use-locale';
import { useViewer } from '../../lib/use-viewer';
import { useWorkspaceName } from '../../lib/use-workspace';
import { reloadAction } from '../../lib/form-action';
import { WORKSPACE_ROLES, type WorkspaceRole } from '../../../common/record-states';
import { can, invitableRoles } from '../../../common/workspace-permissions';
import type { InvitationJson, MemberJson, WorkspaceDetailJson } from '../../../common/workspace-types';
import { CreateWorkspaceForm } from '../../components/workspaces/create-workspace-form';
import { SeatsControl } from '../../components/workspaces/seats-control';
import { WorkspaceCode } from '../../../common/error-codes';

export const action = reloadAction;

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.workspace.title', { noindex: true });

function Card({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6" data-testid={testId}>
      <h2 className="text-base font-semibold text-slate-900">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

const selectClass = 'block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm';

/** The current workspace's settings: name, members and roles, invitations, leave, transfer, delete. */
export default function WorkspaceSettings() {
  const { t } = useTranslation();
  const viewer = useViewer();
  const nameOf = useWorkspaceName();
  const current = viewer?.workspace ?? null;
  const [detail, setDetail] = useState<WorkspaceDetailJson | null>(null);
  const [members, setMembers] = useState<MemberJson[] | null>(null);
  const [invitations, setInvitations] = useState<InvitationJson[] | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);

  const id = current?.id ?? null;
  const kind = current?.kind ?? null;
  const admin =
    !!current &&
    can({ role: current.role }, 'member.invite', { workspaceKind: current.kind, newRole: 'viewer' });
  useEffect(() => {
    if (!id || kind !== 'team') return;
    void api
      .get<WorkspaceDetailJson>(`/self-api/v1/workspaces/${id}`)
      .then(setDetail)
      .catch(() => undefined);
    void api
      .get<{ items: MemberJson[] }>(`/self-api/v1/workspaces/${id}/members`)
      .then((d) => setMembers(d.items))
      .catch(() => setMembers([]));
    if (admin)
      void api
        .get<{ items: InvitationJson[] }>(`/self-api/v1/workspaces/${id}/invitations`)
        .then((d) => setInvitations(d.items))
        .catch(() => setInvitations([]));
  }, [id, kind, admin, version]);

  if (!viewer || !current) {
    return (
      <PageFrame
        heading={t('workspaces.settings.heading')}
        width="max-w-3xl"
        subtitle={t('common.loading')}
      />
    );
  }

  if (current.kind === 'personal') {
    return (
      <PageFrame
        heading={t('workspaces.settings.personalHeading')}
        width="max-w-3xl"
        subtitle={t('workspaces.settings.personalText')}
      >
        <Card title={t('workspaces.create.heading')} testId="workspace-create">
          <CreateWorkspaceForm />
        </Card>
      </PageFrame>
    );
  }

  const role = current.role;
  const owners = members?.filter((m) => m.role === 'owner').length ?? 0;
  return (
    <PageFrame
      heading={nameOf(current)}
      width="max-w-3xl"
      subtitle={t('workspaces.settings.yourRole', { role: t(`workspaces.roles.${role}`) })}
    >
      <div className="space-y-6">
        {can({ role }, 'workspace.rename') ? (
          <Card title={t('workspaces.settings.general')}>
            <RenameForm id={current.id} name={current.name ?? ''} />
          </Card>
        ) : null}
        <Card title={t('workspaces.settings.members')} testId="workspace-members">
          {detail ? <SeatsControl workspaceId={current.id} seats={detail.seats} onChanged={reload} /> : null}
          <MemberList
            workspaceId={current.id}
            me={viewer.id}
            myRole={role}
            members={members}
            owners={owners}
            onChange={reload}
          />
        </Card>
        {admin ? (
          <Card title={t('workspaces.settings.invite')} testId="workspace-invite">
            <InviteForm workspaceId={current.id} role={role} onSent={reload} />
            <h3 className="mt-6 text-sm font-semibold text-slate-900">
              {t('workspaces.settings.invitations')}
            </h3>
            <InvitationList workspaceId={current.id} items={invitations} onChange={reload} />
          </Card>
        ) : null}
        {role === 'owner' ? (
          <Card title={t('workspaces.settings.transfer')}>
            <TransferForm workspaceId={current.id} me={viewer.id} members={members ?? []} />
          </Card>
        ) : null}
        <LeaveCard
          workspaceId={current.id}
          name={nameOf(current)}
          mayLeave={can({ role }, 'workspace.leave', { workspaceKind: 'team', owners })}
        />
        {role === 'owner' ? <DeleteCard workspaceId={current.id} /> : null}
      </div>
    </PageFrame>
  );
}

function RenameForm({ id, name }: { id: string; name: string }) {
  const { t } = useTranslation();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      method="post"
      className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end"
      onSubmit={(e) => {
        e.preventDefault();
        const value = String(new FormData(e.currentTarget).get('name') ?? '');
        setPending(true);
        setError(null);
        api
          .patch(`/self-api/v1/workspaces/${id}`, { name: value }, { handleErrors: true })
          .then(() => {
            toast.success(t('workspaces.settings.renamed'));
            window.location.reload();
          })
          .catch((err: unknown) => setError(err instanceof ApiClientError ? err.message : null))
          .finally(() => setPending(false));
      }}
    >
      <div className="sm:col-span-2">
        <FormAlert message={error} />
      </div>
      <Field label={t('workspaces.settings.name')} name="name" defaultValue={name} maxLength={80} required />
      <CreateButton pending={pending}>{t('workspaces.settings.rename')}</CreateButton>
    </form>
  );
}

function MemberList(props: {
  workspaceId: string;
  me: string;
  myRole: WorkspaceRole;
  members: MemberJson[] | null;
  owners: number;
  onChange: () => void;
}) {
  const { t } = useTranslation();
  const { members, myRole, me, owners, workspaceId } = props;
  if (members === null) return <p className="text-sm text-slate-500">{t('common.loading')}</p>;
  const base = `/self-api/v1/workspaces/${workspaceId}/members`;
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" data-testid="member-list">
      {members.map((m) => {
        const self = m.user_id === me;
        const label = m.name ? `${m.name} · ${m.email}` : m.email;
        const choices = WORKSPACE_ROLES.filter(
          (r) =>
            r === m.role ||
            can({ role: myRole }, 'member.role', {
              workspaceKind: 'team',
              self,
              targetRole: m.role,
              newRole: r,
              owners,
            }),
        );
        const removable =
          !self &&
          can({ role: myRole }, 'member.remove', { workspaceKind: 'team', targetRole: m.role, owners });
        return (
          <li
            key={m.user_id}
            className="flex flex-wrap items-center justify-between gap-2 px-3 py-2.5"
            data-testid="member-row"
          >
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-slate-900">
                {label}
                {self ? (
                  <span className="ml-1 text-xs text-slate-500">({t('workspaces.settings.you')})</span>
                ) : null}
              </p>
              <p className="text-xs text-slate-500">{t(`workspaces.roleHints.${m.role}`)}</p>
            </div>
            <div className="flex items-center gap-2">
              {choices.length > 1 ? (
                <select
                  aria-label={t('workspaces.settings.roleOf', { name: m.name ?? m.email })}
                  className="rounded-lg border border-slate-300 px-2 py-1.5 text-sm"
                  value={m.role}
                  data-testid="member-role"
                  onChange={(e) => {
                    void api.patch(`${base}/${m.user_id}`, { role: e.target.value }).then(() => {
                      toast.success(t('workspaces.settings.roleChanged'));
                      props.onChange();
                    });
                  }}
                >
                  {choices.map((r) => (
                    <option key={r} value={r}>
                      {t(`workspaces.roles.${r}`)}
                    </option>
                  ))}
                </select>
              ) : (
                <span className="rounded-full bg-slate-100 px-2.5 py-1 text-xs font-medium text-slate-700">
                  {t(`workspaces.roles.${m.role}`)}
                </span>
              )}
              {removable ? (
                <DangerButton
                  onClick={() => {
                    if (!window.confirm(t('workspaces.settings.removeAsk', { name: m.name ?? m.email })))
                      return;
                    void api.del(`${base}/${m.user_id}`).then(() => {
                      toast.success(t('workspaces.settings.removed'));
                      props.onChange();
                    });
                  }}
                >
                  {t('workspaces.settings.remove')}
                </DangerButton>
              ) : null}
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function InviteForm({
  workspaceId,
  role,
  onSent,
}: {
  workspaceId: string;
  role: WorkspaceRole;
  onSent: () => void;
}) {
  const { t } = useTranslation();
  const lang = useLocale();
  // Seats full: the toast, whose action leads to the seats control or the plans.
  const { pending, error, fields, post } = useCreateForm({
    toasted: (code) => code === WorkspaceCode.SEATS_FULL,
  });
  return (
    <form
      method="post"
      className="grid gap-3 sm:grid-cols-2"
      data-testid="invite-form"
      onSubmit={(e) => {
        e.preventDefault();
        const form = e.currentTarget;
        const data = new FormData(form);
        const email = String(data.get('email') ?? '');
        void post(`/self-api/v1/workspaces/${workspaceId}/invitations`, {
          email,
          role: String(data.get('role') ?? 'editor'),
          language: String(data.get('language') ?? lang),
        }).then((made) => {
          if (!made) return;
          toast.success(t('workspaces.settings.invited', { email }));
          form.reset();
          onSent();
        });
      }}
    >
      <div className="sm:col-span-2">
        <FormAlert message={error} />
      </div>
      <div className="sm:col-span-2">
        <Field
          label={t('workspaces.settings.inviteEmail')}
          name="email"
          type="email"
          required
          maxLength={254}
          error={fields.email}
        />
      </div>
      <label className="block text-sm font-medium text-slate-700">
        {t('workspaces.settings.role')}
        <select name="role" defaultValue="editor" className={`mt-1.5 ${selectClass}`}>
          {invitableRoles(role).map((r) => (
            <option key={r} value={r}>
              {t(`workspaces.roles.${r}`)} — {t(`workspaces.roleHints.${r}`)}
            </option>
          ))}
        </select>
      </label>
      <label className="block text-sm font-medium text-slate-700">
        {t('workspaces.settings.inviteLanguage')}
        <select name="language" defaultValue={lang} className={`mt-1.5 ${selectClass}`}>
          <LocaleOptions />
        </select>
        <span className="mt-1 block text-xs font-normal text-slate-500">
          {t('workspaces.settings.inviteLanguageHint')}
        </span>
      </label>
      <div className="sm:col-span-2">
        <CreateButton pending={pending}>{t('workspaces.settings.inviteSend')}</CreateButton>
      </div>
    </form>
  );
}

function InvitationList({
  workspaceId,
  items,
  onChange,
}: {
  workspaceId: string;
  items: InvitationJson[] | null;
  onChange: () => void;
}) {
  const { t } = useTranslation();
  const fmt = useFormat();
  if (items === null) return <p className="mt-2 text-sm text-slate-500">{t('common.loading')}</p>;
  if (items.length === 0)
    return <p className="mt-2 text-sm text-slate-500">{t('workspaces.settings.noInvitations')}</p>;
  const base = `/self-api/v1/workspaces/${workspaceId}/invitations`;
  return (
    <ul
      className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200"
      data-testid="invitation-list"
    >
      {items.map((i) => (
        <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2.5">
          <div className="min-w-0">
            <p className="truncate text-sm font-medium text-slate-900">{i.email}</p>
            <p className="text-xs text-slate-500">
              {t(`workspaces.roles.${i.role}`)} ·{' '}
              {i.expired
                ? t('workspaces.settings.expired')
                : t('workspaces.settings.expires', { when: fmt.isoDate(i.expires_at) })}
            </p>
          </div>
          <div className="flex gap-2">
            <button
              type="button"
              className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold text-slate-800 hover:border-slate-400"
              onClick={() =>
                void api.post(`${base}/${i.id}/resend`).then(() => {
                  toast.success(t('workspaces.settings.resent'));
                  onChange();
                })
              }
            >
              {t('workspaces.settings.resend')}
            </button>
            <DangerButton
              onClick={() =>
                void api.del(`${base}/${i.id}`).then(() => {
                  toast.success(t('workspaces.settings.revoked'));
                  onChange();
                })
              }
            >
              {t('workspaces.settings.revoke')}
            </DangerButton>
          </div>
        </li>
      ))}
    </ul>
  );
}

function TransferForm({
  workspaceId,
  me,
  members,
}: {
  workspaceId: string;
  me: string;
  members: MemberJson[];
}) {
  const { t } = useTranslation();
  const others = members.filter((m) => m.user_id !== me);
  if (others.length === 0)
    return <p className="text-sm text-slate-600">{t('workspaces.settings.noOtherMembers')}</p>;
  return (
    <form
      method="post"
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        const userId = String(new FormData(e.currentTarget).get('user_id') ?? '');
        const target = others.find((m) => m.user_id === userId);
        if (
          !target ||
          !window.confirm(t('workspaces.settings.transferAsk', { name: target.name ?? target.email }))
        )
          return;
        void api.post(`/self-api/v1/workspaces/${workspaceId}/transfer`, { user_id: userId }).then(() => {
          toast.success(t('workspaces.settings.transferred'));
          window.location.reload();
        });
      }}
    >
      <p className="text-sm text-slate-600">{t('workspaces.settings.transferText')}</p>
      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <label className="block text-sm font-medium text-slate-700">
          {t('workspaces.settings.transferTo')}
          <select name="user_id" className={`mt-1.5 ${selectClass}`}>
            {others.map((m) => (
              <option key={m.user_id} value={m.user_id}>
                {m.name ? `${m.name} (${m.email})` : m.email}
              </option>
            ))}
          </select>
        </label>
        <CreateButton pending={false}>{t('workspaces.settings.transferButton')}</CreateButton>
      </div>
    </form>
  );
}

function LeaveCard({
  workspaceId,
  name,
  mayLeave,
}: {
  workspaceId: string;
  name: string;
  mayLeave: boolean;
}) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6">
      <h2 className="text-base font-semibold text-slate-900">{t('workspaces.settings.leave')}</h2>
      <p className="mt-1 text-sm text-slate-600">
        {mayLeave ? t('workspaces.settings.leaveText') : t('workspaces.settings.lastOwner')}
      </p>
      {mayLeave ? (
        <div className="mt-4">
          <DangerButton
            onClick={() => {
              if (!window.confirm(t('workspaces.settings.leaveAsk', { name }))) return;
              void api.post(`/self-api/v1/workspaces/${workspaceId}/leave`).then(() => {
                toast.success(t('workspaces.settings.left'));
                window.location.assign(lp('/dashboard'));
              });
            }}
          >
            {t('workspaces.settings.leave')}
          </DangerButton>
        </div>
      ) : null}
    </section>
  );
}

function DeleteCard({ workspaceId }: { workspaceId: string }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <section
      className="rounded-xl border border-red-200 bg-red-50/40 p-5 sm:p-6"
      data-testid="workspace-delete"
    >
      <h2 className="text-base font-semibold text-red-800">{t('workspaces.settings.deleteTitle')}</h2>
      <p className="mt-1 text-sm text-red-700">{t('workspaces.settings.deleteText')}</p>
      <form
        method="post"
        className="mt-4 space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          const confirmName = String(new FormData(e.currentTarget).get('confirm_name') ?? '');
          setPending(true);
          setError(null);
          api
            .del(
              `/self-api/v1/workspaces/${workspaceId}`,
              { confirm_name: confirmName },
              { handleErrors: true },
            )
            .then(() => {
              toast.success(t('workspaces.settings.deleted'));
              window.location.assign(lp('/dashboard'));
            })
            .catch((err: unknown) => setError(err instanceof ApiClientError ? err.message : null))
            .finally(() => setPending(false));
        }}
      >
        <FormAlert message={error} />
        <Field
          label={t('workspaces.settings.deleteConfirm')}
          name="confirm_name"
          required
          autoComplete="off"
        />
        <button
          type="submit"
          disabled={pending}
          className="rounded-lg bg-red-600 px-4 py-2.5 text-sm font-semibold text-white hover:bg-red-700 disabled:opacity-60"
        >
          {t('workspaces.settings.deleteButton')}
        </button>
      </form>
    </section>
  );
}
