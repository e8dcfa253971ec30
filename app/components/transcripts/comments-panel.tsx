import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../lib/api';
import { useViewer } from '../../lib/use-viewer';
import { useFormat } from '../../lib/use-format';
import { formatTime } from '../../../common/format';
import { can } from '../../../common/workspace-permissions';
import type { MemberJson } from '../../../common/workspace-types';
import type { TranscriptJson } from '../../../common/transcript-types';
import type { CommentJson } from '../../../common/comments';

export interface CommentsPanelProps {
  transcript: Pick<TranscriptJson, 'id' | 'workspace_id' | 'segments'>;
  /** The segment the player is at (-1: none): a new comment is about it. */
  currentSegment: number;
  /** The player's time, for a comment between segments. */
  time: number;
  onSeek: (seconds: number) => void;
  /** Told when a comment was written (the activity shows it). */
  onChange?: () => void;
}

const small =
  'rounded-md border border-slate-300 bg-white px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

/**
 * The comments of a transcript: threads on a moment (a segment or a time), replies, resolve, and
 * mentions of the workspace's members (who get a mail linking here).
 */
export function CommentsPanel({ transcript, currentSegment, time, onSeek, onChange }: CommentsPanelProps) {
  const { t } = useTranslation();
  const fmt = useFormat();
  const viewer = useViewer();
  const formId = useId();
  const role = viewer?.workspaces.find((w) => w.id === transcript.workspace_id)?.role ?? null;
  const [comments, setComments] = useState<CommentJson[] | null>(null);
  const [members, setMembers] = useState<MemberJson[]>([]);
  const [body, setBody] = useState('');
  const [mentions, setMentions] = useState<string[]>([]);
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const [reply, setReply] = useState('');
  const [showResolved, setShowResolved] = useState(false);
  const [busy, setBusy] = useState(false);
  const base = `/self-api/v1/transcripts/${transcript.id}/comments`;

  const load = useCallback(() => {
    api
      .get<{ items: CommentJson[] }>(base, undefined, { handleErrors: true })
      .then((r) => setComments(r.items))
      .catch(() => setComments([]));
  }, [base]);
  useEffect(load, [load]);
  useEffect(() => {
    api
      .get<{ items: MemberJson[] }>(`/self-api/v1/workspaces/${transcript.workspace_id}/members`, undefined, {
        handleErrors: true,
      })
      .then((r) => setMembers(r.items.filter((m) => m.user_id !== viewer?.id)))
      .catch(() => setMembers([]));
  }, [transcript.workspace_id, viewer?.id]);

  // A link to a comment (#comment-<id>, from a mention's mail) scrolls to it once the list is in.
  useEffect(() => {
    if (!comments || typeof window === 'undefined' || !window.location.hash.startsWith('#comment-')) return;
    document.getElementById(window.location.hash.slice(1))?.scrollIntoView({ block: 'center' });
  }, [comments]);

  const threads = useMemo(() => {
    const all = comments ?? [];
    return all
      .filter((c) => !c.parent_id && (showResolved || !c.resolved))
      .map((c) => ({ ...c, replies: all.filter((r) => r.parent_id === c.id) }));
  }, [comments, showResolved]);
  const resolvedCount = (comments ?? []).filter((c) => !c.parent_id && c.resolved).length;
  const segment = transcript.segments?.[currentSegment];
  const moment = segment ? segment.start : time;

  const nameOf = (m: MemberJson) => m.name || m.email;
  const toggleMention = (m: MemberJson) => {
    const on = mentions.includes(m.user_id);
    setMentions(on ? mentions.filter((id) => id !== m.user_id) : [...mentions, m.user_id]);
    if (!on && !body.includes(`@${nameOf(m)}`))
      setBody((b) => `${b}${b && !b.endsWith(' ') ? ' ' : ''}@${nameOf(m)} `);
  };

  const post = async (payload: Record<string, unknown>) => {
    setBusy(true);
    try {
      await api.post(base, payload);
      load();
      onChange?.();
      return true;
    } catch {
      return false;
    } finally {
      setBusy(false);
    }
  };
  const add = async () => {
    const moment = segment ? { segment_index: currentSegment } : { start: Math.max(0, time) };
    if (await post({ body, mentions, ...moment })) {
      setBody('');
      setMentions([]);
    }
  };
  const answer = async (parent: string) => {
    if (await post({ body: reply, parent_id: parent })) {
      setReply('');
      setReplyTo(null);
    }
  };
  const resolve = async (c: CommentJson) => {
    await api.post(`${base}/${c.id}/resolve`, { resolved: !c.resolved }).catch(() => null);
    load();
  };
  const remove = async (c: CommentJson) => {
    if (!window.confirm(t('comments.deleteConfirm'))) return;
    await api.del(`${base}/${c.id}`).catch(() => null);
    load();
  };

  const mayComment = can(role ? { role } : null, 'transcript.comment');
  const controls = (c: CommentJson) => {
    const author = !!c.author && c.author.id === viewer?.id;
    const member = role ? { role } : null;
    return {
      resolve: can(member, 'comment.resolve', { author }),
      delete: can(member, 'comment.delete', { author }),
    };
  };

  return (
    <section
      className="rounded-xl border border-slate-200 bg-white p-4"
      aria-label={t('comments.title')}
      data-testid="comments"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-sm font-semibold text-slate-900">{t('comments.title')}</h2>
        {resolvedCount > 0 ? (
          <label className="flex items-center gap-1.5 text-xs text-slate-600">
            <input
              type="checkbox"
              checked={showResolved}
              onChange={(e) => setShowResolved(e.target.checked)}
            />
            {t('comments.showResolved', { count: resolvedCount })}
          </label>
        ) : null}
      </div>
      {mayComment ? (
        <form
          method="post"
          className="mt-3 space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <label htmlFor={`${formId}-body`} className="block text-xs text-slate-600">
            {segment
              ? t('comments.aboutSegment', { time: formatTime(moment) })
              : t('comments.aboutTime', { time: formatTime(moment) })}
          </label>
          <textarea
            id={`${formId}-body`}
            name="body"
            rows={2}
            maxLength={4000}
            value={body}
            onChange={(e) => setBody(e.target.value)}
            placeholder={t('comments.placeholder')}
            className="w-full rounded-lg border border-slate-300 px-3 py-2 text-sm"
          />
          {members.length > 0 ? (
            <div className="flex flex-wrap items-center gap-1.5" aria-label={t('comments.mention')}>
              <span className="text-xs text-slate-600">{t('comments.mention')}</span>
              {members.map((m) => (
                <button
                  key={m.user_id}
                  type="button"
                  aria-pressed={mentions.includes(m.user_id)}
                  onClick={() => toggleMention(m)}
                  className={`rounded-full border px-2 py-0.5 text-xs ${
                    mentions.includes(m.user_id)
                      ? 'border-brand-600 bg-brand-50 text-brand-800'
                      : 'border-slate-300 text-slate-700 hover:bg-slate-50'
                  }`}
                >
                  @{nameOf(m)}
                </button>
              ))}
            </div>
          ) : null}
          <button
            type="submit"
            disabled={busy || !body.trim()}
            className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-50"
          >
            {t('comments.add')}
          </button>
        </form>
      ) : null}
      {comments && threads.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">{t('comments.empty')}</p>
      ) : null}
      <ol className="mt-3 space-y-3">
        {threads.map((c) => {
          const allowed = controls(c);
          return (
            <li
              key={c.id}
              id={`comment-${c.id}`}
              className={`rounded-lg border p-3 text-sm ${c.resolved ? 'border-slate-200 bg-slate-50 text-slate-600' : 'border-slate-200'}`}
            >
              <CommentLine comment={c} onSeek={onSeek} date={fmt.isoDate(c.created_at)} />
              {c.replies.map((r) => (
                <div key={r.id} id={`comment-${r.id}`} className="mt-2 border-l-2 border-slate-200 pl-3">
                  <CommentLine comment={r} date={fmt.isoDate(r.created_at)} />
                </div>
              ))}
              <div className="mt-2 flex flex-wrap gap-1.5">
                {mayComment ? (
                  <button
                    type="button"
                    className={small}
                    onClick={() => setReplyTo(replyTo === c.id ? null : c.id)}
                  >
                    {t('comments.reply')}
                  </button>
                ) : null}
                {allowed.resolve ? (
                  <button type="button" className={small} onClick={() => void resolve(c)}>
                    {c.resolved ? t('comments.reopen') : t('comments.resolve')}
                  </button>
                ) : null}
                {allowed.delete ? (
                  <button type="button" className={small} onClick={() => void remove(c)}>
                    {t('comments.delete')}
                  </button>
                ) : null}
                {c.resolved ? (
                  <span className="self-center text-xs text-slate-500">{t('comments.resolved')}</span>
                ) : null}
              </div>
              {replyTo === c.id ? (
                <form
                  method="post"
                  className="mt-2 flex flex-col gap-2 sm:flex-row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void answer(c.id);
                  }}
                >
                  <input
                    aria-label={t('comments.reply')}
                    value={reply}
                    maxLength={4000}
                    onChange={(e) => setReply(e.target.value)}
                    className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-1.5 text-sm"
                  />
                  <button type="submit" disabled={busy || !reply.trim()} className={small}>
                    {t('comments.send')}
                  </button>
                </form>
              ) : null}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

function CommentLine({
  comment,
  onSeek,
  date,
}: {
  comment: CommentJson;
  onSeek?: (seconds: number) => void;
  date: string;
}) {
  const { t } = useTranslation();
  return (
    <div>
      <p className="flex flex-wrap items-center gap-x-2 text-xs text-slate-500">
        <span className="font-semibold text-slate-800">{comment.author?.name ?? t('comments.formerMember')}</span>
        {onSeek ? (
          <button
            type="button"
            className="font-mono text-brand-700 hover:underline"
            onClick={() => onSeek(comment.start)}
          >
            {formatTime(comment.start)}
          </button>
        ) : null}
        <span>{date}</span>
      </p>
      <p className="mt-1 whitespace-pre-wrap break-words">{comment.body}</p>
    </div>
  );
}
