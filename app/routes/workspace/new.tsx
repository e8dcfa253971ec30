import { useTranslation } from 'react-i18next';
import type { Route } from './+types/new';
import { pageMeta } from '../../lib/meta';
import { PageFrame } from '../../components/layout/page-frame';
import { CreateWorkspaceForm } from '../../components/workspaces/create-workspace-form';
import { reloadAction } from '../../lib/form-action';

export const action = reloadAction;

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, 'pages.workspaceNew.title', { noindex: true });

export default function NewWorkspace() {
  const { t } = useTranslation();
  return (
    <PageFrame heading={t('workspaces.create.heading')} width="max-w-xl">
      <section className="rounded-xl border border-slate-200 bg-white p-5 sm:p-6">
        <CreateWorkspaceForm />
      </section>
    </PageFrame>
  );
}
