import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Route } from './+types/index';
import { pageMeta } from '../../lib/meta';
import { api } from '../../lib/api';
import { refreshUserState, useUserState } from '../../lib/user-state';
import { PageFrame } from '../../components/layout/page-frame';
import { UploadPanel } from '../../components/transcripts/upload-panel';
import { QuotaMeter } from '../../components/transcripts/quota-meter';
import { TranscriptList } from '../../components/transcripts/transcript-list';
import { ACTIVE_STATUSES, type TranscriptJson, type TranscriptPage } from '../../../common/transcript-types';

export const meta: Route.MetaFunction = (args) => pageMeta(args, 'pages.dashboard.title', { noindex: true });

const POLL_MS = 3_000;

export default function Dashboard() {
  const { t } = useTranslation();
  const { permissions_quota: quota } = useUserState();
  const [page, setPage] = useState<TranscriptPage | null>(null);

  const load = useCallback(() => {
    api
      .get<TranscriptPage>('/self-api/v1/transcripts', { page_size: 50 }, { handleErrors: true })
      .then(setPage)
      // Kept as it was; the next poll tries again.
      .catch(() => undefined);
  }, []);

  useEffect(load, [load]);

  // While something is being transcribed, the list follows its progress.
  const active = page?.items.some((i) => ACTIVE_STATUSES.includes(i.status)) ?? false;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(load, POLL_MS);
    return () => {
      clearInterval(timer);
      void refreshUserState();
    };
  }, [active, load]);

  const onCreated = useCallback(
    (created: TranscriptJson) => {
      setPage((p) =>
        p ? { ...p, items: [created, ...p.items.filter((i) => i.id !== created.id)], total: p.total + 1 } : p,
      );
      load();
    },
    [load],
  );

  return (
    <PageFrame heading={t('pages.dashboard.heading')} actions={<QuotaMeter quota={quota} />}>
      <UploadPanel maxFileMb={quota?.max_file_mb ?? null} onCreated={onCreated} />
      <div className="mt-8">
        {page === null ? (
          <p className="text-sm text-slate-500">{t('common.loading')}</p>
        ) : page.items.length === 0 ? (
          <div className="rounded-2xl border border-slate-200 px-6 py-12 text-center">
            <h2 className="text-lg font-semibold text-slate-900">{t('pages.dashboard.emptyTitle')}</h2>
            <p className="mx-auto mt-1 max-w-sm text-sm text-slate-600">{t('pages.dashboard.emptyText')}</p>
          </div>
        ) : (
          <TranscriptList items={page.items} />
        )}
      </div>
    </PageFrame>
  );
}
