import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Field } from '../form/field';
import { FormAlert } from '../form/form-alert';
import { CreateButton, useCreateForm } from '../developer/owned-list';
import { useLocalePath } from '../../lib/use-locale';
import { switchWorkspace } from '../../lib/use-workspace';
import type { WorkspaceJson } from '../../../common/workspace-types';
import { cheapestRankWithSeats } from '../../../common/ranks';

/** Creates a team workspace and switches to its settings, where members are invited. */
export function CreateWorkspaceForm() {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const { pending, error, fields, post } = useCreateForm();
  return (
    <form
      method="post"
      className="space-y-4"
      data-testid="create-workspace-form"
      onSubmit={(e) => {
        e.preventDefault();
        const name = String(new FormData(e.currentTarget).get('name') ?? '');
        void post<WorkspaceJson>('/self-api/v1/workspaces', { name }).then(async (made) => {
          if (!made) return;
          toast.success(t('workspaces.create.created'));
          await switchWorkspace(made.id, lp('/workspace'));
        });
      }}
    >
      <p className="text-sm text-slate-600">{t('workspaces.create.intro')}</p>
      <FormAlert message={error} />
      <Field
        label={t('workspaces.create.name')}
        name="name"
        placeholder={t('workspaces.create.placeholder')}
        maxLength={80}
        required
        error={fields.name}
      />
      <p className="text-xs text-slate-500">
        {t('workspaces.create.seatsNote', { plan: t(`ranks.${cheapestRankWithSeats(1) ?? 'Enterprise'}`) })}
      </p>
      <CreateButton pending={pending}>{t('workspaces.create.submit')}</CreateButton>
    </form>
  );
}
