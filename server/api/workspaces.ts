import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../http/app-env';
import { uuidParam } from '../http/current-user';
import { requirePerson, setWorkspaceCookie } from '../http/current-actor';
import { ok } from '../../common/envelope';
import { readBody, readQuery } from '../http/validate';
import { requestMeta } from '../http/request-meta';
import { textField } from '../../common/text';
import { INVITABLE_ROLES, WORKSPACE_ROLES } from '../../common/record-states';
import { LOCALES } from '../../common/locales';
import type { WorkspaceDetailJson } from '../../common/workspace-types';
import { UUID_RE } from '../../common/validators';
import {
  createWorkspace,
  deleteWorkspace,
  listWorkspaces,
  memberCount,
  memberWorkspace,
  renameWorkspace,
  workspaceJson,
} from '../modules/workspaces/workspaces';
import {
  changeRole,
  leaveWorkspace,
  listMembers,
  removeMember,
  transferOwnership,
} from '../modules/workspaces/members';
import {
  answerInvitation,
  invitationsFor,
  inviteMember,
  listInvitations,
  previewInvitation,
  resendInvitation,
  revokeInvitation,
} from '../modules/workspaces/invitations';
import { invitationInvalid, memberNotFound, workspaceNotFound } from '../modules/workspaces/errors';
import { workspacePlan } from '../modules/workspaces/plan';
import { workspaceSeats } from '../modules/workspaces/seats';
import type { WorkspaceDeps } from '../modules/workspaces/deps';
import type { Actor } from '../modules/workspaces/actor';

const name = textField({ min: 1, max: 80, maxMessage: 'validation.nameMax' });
const uuid = z.string().regex(UUID_RE, 'validation.uuid');
export const workspaceNameSchema = z.object({ name }).strict();
export const switchSchema = z.object({ workspace_id: uuid }).strict();
export const deleteWorkspaceSchema = z.object({ confirm_name: z.string().max(200) }).strict();
export const roleSchema = z.object({ role: z.enum(WORKSPACE_ROLES) }).strict();
export const transferSchema = z.object({ user_id: uuid }).strict();
export const inviteSchema = z
  .object({
    email: z.string().trim().toLowerCase().max(254).email('validation.email'),
    role: z.enum(INVITABLE_ROLES).default('editor'),
    language: z.enum(LOCALES).optional(),
  })
  .strict();
/** An invitation is answered by its link's token, or by id from the invitee's own list. */
export const answerSchema = z.union([
  z.object({ token: z.string().min(20).max(100) }).strict(),
  z.object({ id: uuid }).strict(),
]);
export const previewSchema = z.object({ token: z.string().max(200) });

async function detail(deps: WorkspaceDeps, actor: Actor, id: string): Promise<WorkspaceDetailJson> {
  const { workspace, role } = await memberWorkspace(deps, actor, id);
  const [members, plan] = await Promise.all([
    memberCount(deps, workspace.id),
    workspacePlan(deps.db, workspace),
  ]);
  const seats = await workspaceSeats(deps.db, workspace, plan, { id: actor.user.id, role }, deps.now());
  return {
    ...workspaceJson(workspace, role),
    members,
    seats,
    rank_name: plan.rankName,
  };
}

/**
 * /self-api/v1/workspaces and /self-api/v1/invitations (docs/decisions/0027-team-workspaces.md):
 * a signed-in person's workspaces, their members and invitations. API keys act in one workspace
 * and manage none of this.
 */
export function workspacesApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): WorkspaceDeps => c.get('deps').services.workspaces;
  const idParam = (c: Context<AppEnv>) => uuidParam(c, 'id', workspaceNotFound);
  const memberParam = (c: Context<AppEnv>) => uuidParam(c, 'userId', memberNotFound);
  const invitationParam = (c: Context<AppEnv>) => uuidParam(c, 'invitationId', invitationInvalid);
  const origin = (c: Context<AppEnv>) => {
    const { env } = c.get('deps');
    return requestMeta(c, { trustProxy: env.TRUST_PROXY, publicUrl: env.PUBLIC_URL });
  };

  api.get('/', async (c) => {
    const actor = await requirePerson(c);
    const rows = await listWorkspaces(deps(c), actor.user);
    return c.json(
      ok({
        current: actor.workspace.id,
        items: rows.map((r) => workspaceJson(r.workspace, r.role)),
      }),
    );
  });

  api.post('/', async (c) => {
    const actor = await requirePerson(c);
    const body = await readBody(c, workspaceNameSchema);
    const created = await createWorkspace(deps(c), actor.user, body.name);
    return c.json(ok(workspaceJson(created, 'owner', 1)));
  });

  api.get('/current', async (c) => {
    const actor = await requirePerson(c);
    return c.json(ok(await detail(deps(c), actor, actor.workspace.id)));
  });

  // The switcher: remembers the choice for the pages (membership checked first).
  api.put('/current', async (c) => {
    const actor = await requirePerson(c);
    const body = await readBody(c, switchSchema);
    const { workspace, role } = await memberWorkspace(deps(c), actor, body.workspace_id);
    setWorkspaceCookie(c, workspace.id);
    return c.json(ok(workspaceJson(workspace, role)));
  });

  api.get('/:id', async (c) => {
    const actor = await requirePerson(c);
    return c.json(ok(await detail(deps(c), actor, idParam(c))));
  });

  api.patch('/:id', async (c) => {
    const actor = await requirePerson(c);
    const id = idParam(c);
    const body = await readBody(c, workspaceNameSchema);
    const { workspace, role } = await renameWorkspace(deps(c), actor, id, body.name);
    return c.json(ok(workspaceJson(workspace, role)));
  });

  api.delete('/:id', async (c) => {
    const actor = await requirePerson(c);
    const id = idParam(c);
    const body = await readBody(c, deleteWorkspaceSchema);
    await deleteWorkspace(deps(c), actor, id, body.confirm_name);
    return c.json(ok(null));
  });

  api.get('/:id/members', async (c) => {
    const actor = await requirePerson(c);
    return c.json(ok({ items: await listMembers(deps(c), actor, idParam(c)) }));
  });

  api.patch('/:id/members/:userId', async (c) => {
    const actor = await requirePerson(c);
    const id = idParam(c);
    const userId = memberParam(c);
    const body = await readBody(c, roleSchema);
    return c.json(ok(await changeRole(deps(c), actor, id, userId, body.role)));
  });

  api.delete('/:id/members/:userId', async (c) => {
    const actor = await requirePerson(c);
    await removeMember(deps(c), actor, idParam(c), memberParam(c));
    return c.json(ok(null));
  });

  api.post('/:id/leave', async (c) => {
    const actor = await requirePerson(c);
    await leaveWorkspace(deps(c), actor, idParam(c));
    return c.json(ok(null));
  });

  api.post('/:id/transfer', async (c) => {
    const actor = await requirePerson(c);
    const id = idParam(c);
    const body = await readBody(c, transferSchema);
    await transferOwnership(deps(c), actor, id, body.user_id);
    return c.json(ok(null));
  });

  api.get('/:id/invitations', async (c) => {
    const actor = await requirePerson(c);
    return c.json(ok({ items: await listInvitations(deps(c), actor, idParam(c)) }));
  });

  api.post('/:id/invitations', async (c) => {
    const actor = await requirePerson(c);
    const id = idParam(c);
    const body = await readBody(c, inviteSchema);
    const meta = origin(c);
    const row = await inviteMember(deps(c), actor, id, {
      email: body.email,
      role: body.role,
      language: body.language ?? meta.lang,
      origin: meta.origin,
    });
    return c.json(
      ok({ id: row.id, email: row.email, role: row.role, expires_at: row.expiresAt.toISOString() }),
    );
  });

  api.post('/:id/invitations/:invitationId/resend', async (c) => {
    const actor = await requirePerson(c);
    const id = idParam(c);
    const row = await resendInvitation(deps(c), actor, id, invitationParam(c), origin(c).origin);
    return c.json(
      ok({ id: row.id, email: row.email, role: row.role, expires_at: row.expiresAt.toISOString() }),
    );
  });

  api.delete('/:id/invitations/:invitationId', async (c) => {
    const actor = await requirePerson(c);
    await revokeInvitation(deps(c), actor, idParam(c), invitationParam(c));
    return c.json(ok(null));
  });

  return api;
}

/** /self-api/v1/invitations: the invitee's side (the link's preview needs no account). */
export function invitationsApi() {
  const api = new Hono<AppEnv>();
  const deps = (c: Context<AppEnv>): WorkspaceDeps => c.get('deps').services.workspaces;

  api.get('/', async (c) => {
    const user = (await requirePerson(c)).user;
    return c.json(ok({ items: await invitationsFor(deps(c), user) }));
  });

  api.get('/preview', async (c) => {
    const q = readQuery(c, previewSchema);
    return c.json(ok(await previewInvitation(deps(c), q.token)));
  });

  for (const [path, answer] of [
    ['/accept', 'accepted'],
    ['/decline', 'declined'],
  ] as const) {
    api.post(path, async (c) => {
      const actor = await requirePerson(c);
      const body = await readBody(c, answerSchema);
      const { workspace, invitation } = await answerInvitation(deps(c), actor.user, body, answer);
      // Whoever accepts goes on working in the workspace they joined.
      if (answer === 'accepted') setWorkspaceCookie(c, workspace.id);
      return c.json(ok({ workspace: workspaceJson(workspace, invitation.role), status: invitation.status }));
    });
  }

  return api;
}
