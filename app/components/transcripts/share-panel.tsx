import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { api } from '../../lib/api';
import { useRootData } from '../../lib/use-locale';
import type { ShareLinkJson, TranscriptJson } from '../../../common/transcript-types';
import { useFormat } from '../../lib/use-format';

const EXPIRY_CHOICES = ['never', '1', '7', '30'] as const;
type ExpiryChoice = (typeof EXPIRY_CHOICES)[number];

const DAY_MS = 24 * 60 * 60 * 1000;

export interface SharePanelProps {
  /** The transcript to share; only a finished one can be. */
  transcript: Pick<TranscriptJson, 'id' | 'status' | 'media'>;
  className?: string;
}

type LinkState = 'active' | 'revoked' | 'expired';

function stateOf(link: ShareLinkJson, now: number): LinkState {
  if (link.revoked_at) return 'revoked';
  if (link.expires_at && Date.parse(link.expires_at) <= now) return 'expired';
  return 'active';
}

const seconds = (iso: string) => Date.parse(iso) / 1000;

/** The owner's share links of one transcript: create (expiry, media, downloads), copy, revoke. */
export function SharePanel({ transcript, className = '' }: SharePanelProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const publicUrl = useRootData()?.config.publicUrl ?? null;
  const formId = useId();
  const ready = transcript.status === 'done';
  const hasMedia = !!transcript.media;
  const [links, setLinksState] = useState<ShareLinkJson[] | null>(null);
  // When the list was last updated: link states (expired or not) are judged at that moment.
  const [now, setNow] = useState(0);
  const [expiry, setExpiry] = useState<ExpiryChoice>('7');
  const [allowMedia, setAllowMedia] = useState(true);
  const [allowDownload, setAllowDownload] = useState(false);
  const [includeInsights, setIncludeInsights] = useState(false);
  const [busy, setBusy] = useState(false);
  /** The link whose option is being saved. */
  const [editing, setEditing] = useState<string | null>(null);
  // The link just created: brought into view with its Copy button focused, wherever the panel
  // sits (the desktop column scrolls on its own, so the new row may be below its fold).
  const [created, setCreated] = useState<string | null>(null);
  const list = useRef<HTMLUListElement | null>(null);
  const base = `/self-api/v1/transcripts/${transcript.id}/shares`;

  const setLinks = useCallback((next: (prev: ShareLinkJson[] | null) => ShareLinkJson[]) => {
    setLinksState(next);
    setNow(Date.now());
  }, []);

  const load = useCallback(() => {
    api
      .get<{ items: ShareLinkJson[] }>(base, undefined, { handleErrors: true })
      .then((r) => setLinks(() => r.items))
      // An empty list still lets the owner create a link; the next change reloads it.
      .catch(() => setLinks(() => []));
  }, [base, setLinks]);

  useEffect(() => {
    if (ready) load();
  }, [ready, load]);

  useEffect(() => {
    if (!created) return;
    const row = list.current?.querySelector<HTMLElement>(`[data-share-id="${created}"]`);
    if (!row) return;
    row.scrollIntoView({ block: 'nearest' });
    row.querySelector<HTMLButtonElement>('[data-share-copy]')?.focus({ preventScroll: true });
    setCreated(null);
  }, [created, links]);

  const absolute = (path: string) =>
    (publicUrl ?? (typeof window === 'undefined' ? '' : window.location.origin)).replace(/\/$/, '') + path;

  const copy = async (link: ShareLinkJson) => {
    try {
      await navigator.clipboard.writeText(absolute(link.url));
      toast.success(t('pages.share.panel.copied'));
    } catch {
      toast.error(t('pages.share.panel.copyFailed'));
    }
  };

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const created = await api.post<ShareLinkJson>(base, {
        expires_at: expiry === 'never' ? null : new Date(Date.now() + Number(expiry) * DAY_MS).toISOString(),
        allow_media: hasMedia && allowMedia,
        allow_download: allowDownload,
        include_insights: includeInsights,
      });
      setLinks((l) => [created, ...(l ?? [])]);
      setCreated(created.id);
      toast.success(t('pages.share.panel.created'));
    } catch {
      // the API client has shown the translated error (plan limit, not finished, …)
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (link: ShareLinkJson) => {
    if (!window.confirm(t('pages.share.panel.confirmRevoke'))) return;
    try {
      const revoked = await api.del<ShareLinkJson>(`${base}/${link.id}`);
      setLinks((l) => (l ?? []).map((x) => (x.id === revoked.id ? revoked : x)));
    } catch {
      load();
    }
  };

  // The summary and chapters can be added to (or taken off) a link people already have.
  const setInsights = async (link: ShareLinkJson, include: boolean) => {
    setEditing(link.id);
    // Shown at once; the server's answer (or a reload, on an error) settles it.
    setLinks((l) => (l ?? []).map((x) => (x.id === link.id ? { ...x, include_insights: include } : x)));
    try {
      const updated = await api.patch<ShareLinkJson>(`${base}/${link.id}`, { include_insights: include });
      setLinks((l) => (l ?? []).map((x) => (x.id === updated.id ? updated : x)));
      toast.success(t('pages.share.panel.updated'));
    } catch {
      // the API client has shown the translated error (a link revoked meanwhile, …)
      load();
    } finally {
      setEditing(null);
    }
  };

  const input = 'h-4 w-4 rounded border-slate-300 text-brand-600';
  const small = 'rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 disabled:opacity-50';

  return (
    <section
      className={`rounded-2xl border border-slate-200 bg-white p-4 ${className}`}
      data-testid="share-panel"
    >
      <h2 className="font-semibold text-slate-900">{t('pages.share.panel.title')}</h2>
      {!ready ? (
        <p className="mt-1 text-sm text-slate-600">{t('pages.share.panel.notReady')}</p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">{t('pages.share.panel.hint')}</p>
          <form method="post" onSubmit={(e) => void create(e)} className="mt-4 space-y-3">
            <div>
              <label htmlFor={`${formId}-expiry`} className="block text-sm font-medium text-slate-700">
                {t('pages.share.panel.expiry')}
              </label>
              <select
                id={`${formId}-expiry`}
                value={expiry}
                onChange={(e) => setExpiry(e.target.value as ExpiryChoice)}
                className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm text-slate-900"
              >
                {EXPIRY_CHOICES.map((c) => (
                  <option key={c} value={c}>
                    {t(`pages.share.panel.expiryChoice.${c === 'never' ? 'never' : `days${c}`}`)}
                  </option>
                ))}
              </select>
            </div>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className={input}
                checked={hasMedia && allowMedia}
                disabled={!hasMedia}
                onChange={(e) => setAllowMedia(e.target.checked)}
              />
              {t('pages.share.panel.includeMedia')}
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className={input}
                checked={allowDownload}
                onChange={(e) => setAllowDownload(e.target.checked)}
              />
              {t('pages.share.panel.allowDownload')}
            </label>
            <label className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="checkbox"
                className={input}
                checked={includeInsights}
                onChange={(e) => setIncludeInsights(e.target.checked)}
                data-testid="share-include-insights"
              />
              {t('pages.share.panel.includeInsights')}
            </label>
            <button
              type="submit"
              disabled={busy}
              className="w-full rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50 sm:w-auto"
            >
              {busy ? t('pages.share.panel.creating') : t('pages.share.panel.create')}
            </button>
          </form>

          <div className="mt-5">
            {links === null ? (
              <p className="text-sm text-slate-500">{t('common.loading')}</p>
            ) : links.length === 0 ? (
              <p className="text-sm text-slate-500">{t('pages.share.panel.empty')}</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="share-links" ref={list}>
                {links.map((link) => {
                  const state = stateOf(link, now);
                  return (
                    <li
                      key={link.id}
                      className="scroll-mb-4 py-3"
                      data-share-state={state}
                      data-share-id={link.id}
                    >
                      <input
                        readOnly
                        value={absolute(link.url)}
                        aria-label={t('pages.share.panel.linkLabel')}
                        onFocus={(e) => e.currentTarget.select()}
                        className={`block w-full truncate rounded-md border border-slate-200 bg-slate-50 px-2 py-1 font-mono text-xs ${state === 'active' ? 'text-slate-700' : 'text-slate-400 line-through'}`}
                      />
                      <div className="mt-1.5 flex flex-wrap items-center justify-between gap-2">
                        <p className="flex flex-wrap gap-x-3 text-xs text-slate-500">
                          <span>{t(`pages.share.panel.state.${state}`)}</span>
                          <span>
                            {link.expires_at
                              ? t('pages.share.panel.expires', { date: fmt.date(seconds(link.expires_at)) })
                              : t('pages.share.panel.neverExpires')}
                          </span>
                          <span>{t('pages.share.panel.views', { count: link.views })}</span>
                          {link.allow_media ? <span>{t('pages.share.panel.withMedia')}</span> : null}
                          {link.allow_download ? <span>{t('pages.share.panel.withDownloads')}</span> : null}
                          {link.include_insights && state !== 'active' ? (
                            <span>{t('pages.share.panel.withInsights')}</span>
                          ) : null}
                        </p>
                        {state === 'active' ? (
                          <span className="flex gap-1">
                            <button
                              type="button"
                              className={`${small} text-brand-600`}
                              onClick={() => void copy(link)}
                              data-share-copy
                            >
                              {t('pages.share.panel.copy')}
                            </button>
                            <button
                              type="button"
                              className={`${small} text-red-700`}
                              onClick={() => void revoke(link)}
                            >
                              {t('pages.share.panel.revoke')}
                            </button>
                          </span>
                        ) : null}
                      </div>
                      {state === 'active' ? (
                        <label className="mt-1.5 flex items-center gap-2 text-xs text-slate-600">
                          <input
                            type="checkbox"
                            className={input}
                            checked={link.include_insights}
                            aria-busy={editing === link.id}
                            onChange={(e) => {
                              if (editing !== link.id) void setInsights(link, e.target.checked);
                            }}
                            data-testid="share-link-insights"
                          />
                          {t('pages.share.panel.includeInsights')}
                        </label>
                      ) : null}
                    </li>
                  );
                })}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
}
