import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { answerPieces, QUESTION_MAX, type AskCitation, type AskMessageJson } from '../../../common/ask';
import { chapterClock } from '../../../common/insights';
import { partialStrings } from '../../../common/partial-json';
import { useAsk, type AskScope } from '../../lib/use-ask';
import { useLocalePath } from '../../lib/use-locale';

/** What the model says when the material does not hold the answer (never shown as such). */
const NOT_FOUND_MARKER = 'NOT_IN_TRANSCRIPT';

const cite =
  'rounded bg-brand-50 px-1 font-mono text-xs text-brand-700 hover:bg-brand-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500';

/**
 * The Ask tab of the AI panel: questions about this transcript (or, when it is in a folder, about
 * the folder's transcripts), answers whose `[12:34]` marks seek the player — or open the other
 * transcript there — the conversation kept, and cleared on demand.
 */
export function AskTab({
  transcriptId,
  folderId,
  onSeek,
}: {
  transcriptId: string;
  folderId: string | null;
  onSeek: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  // The folder chosen (its name comes with the transcript's conversation); null: this transcript.
  const [chosen, setChosen] = useState<{ id: string; name: string } | null>(null);
  const scope: AskScope = chosen
    ? { kind: 'folder', id: chosen.id }
    : { kind: 'transcript', id: transcriptId };
  const { conversation, loadFailed, stream, pending, ask, clear } = useAsk(scope);
  const folder = chosen ?? (conversation?.scope.kind === 'transcript' ? conversation.folder : null);

  const [question, setQuestion] = useState('');
  const [sending, setSending] = useState(false);
  const end = useRef<HTMLDivElement | null>(null);
  const count = conversation?.messages.length ?? 0;
  useEffect(() => {
    if (count > 0) end.current?.scrollIntoView({ block: 'nearest' });
  }, [count, stream]);

  const submit = async () => {
    const q = question.trim();
    if (!q || sending || pending) return;
    setSending(true);
    try {
      await ask(q);
      setQuestion('');
    } catch {
      // the API client has shown why
    } finally {
      setSending(false);
    }
  };
  const onClear = async () => {
    try {
      await clear();
      toast.success(t('ai.ask.cleared'));
    } catch {
      // the API client has shown why
    }
  };

  const folderScope = scope.kind === 'folder';
  const names = new Map((conversation?.transcripts ?? []).map((x) => [x.id, x.name]));
  const messages = conversation?.messages ?? [];
  const usage = conversation?.usage;

  return (
    <div className="space-y-3" data-testid="ask-tab">
      {folder && folderId ? (
        <div role="radiogroup" aria-label={t('ai.ask.scope')} className="flex flex-wrap items-center gap-1.5">
          <span className="text-xs text-slate-600">{t('ai.ask.scope')}</span>
          {(
            [
              ['transcript', t('ai.ask.scopeTranscript')],
              ['folder', t('ai.ask.scopeFolder', { name: folder.name })],
            ] as const
          ).map(([kind, label]) => (
            <button
              key={kind}
              type="button"
              role="radio"
              aria-checked={scope.kind === kind}
              data-testid={`ask-scope-${kind}`}
              onClick={() => setChosen(kind === 'folder' ? folder : null)}
              className={`max-w-full truncate rounded-full border px-2.5 py-0.5 text-xs ${
                scope.kind === kind
                  ? 'border-brand-600 bg-brand-50 text-brand-800'
                  : 'border-slate-300 text-slate-700 hover:bg-slate-50'
              }`}
            >
              {label}
            </button>
          ))}
        </div>
      ) : null}

      {!conversation ? (
        <p className="text-sm text-slate-500">{loadFailed ? t('errors.requestError') : t('ai.loading')}</p>
      ) : messages.length === 0 ? (
        <p className="text-sm text-slate-600">
          {folderScope && folder ? t('ai.ask.introFolder', { name: folder.name }) : t('ai.ask.intro')}
        </p>
      ) : (
        <ol className="space-y-3" aria-live="polite" data-testid="ask-messages">
          {messages.map((m) => (
            <li key={m.id} data-testid={`ask-${m.role}`} data-status={m.status}>
              {m.role === 'user' ? (
                <div className="ml-auto w-fit max-w-[90%] rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-900">
                  <span className="sr-only">{t('ai.ask.you')}: </span>
                  <bdi className="whitespace-pre-wrap break-words">{m.content}</bdi>
                </div>
              ) : (
                <Answer
                  message={m}
                  stream={m.id === messages.at(-1)?.id ? stream : ''}
                  folder={folderScope}
                  currentId={transcriptId}
                  names={names}
                  onSeek={onSeek}
                />
              )}
            </li>
          ))}
        </ol>
      )}
      <div ref={end} />

      <form
        method="post"
        className="space-y-2 border-t border-slate-100 pt-3"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <label className="block text-xs text-slate-600" htmlFor="ask-question">
          {t('ai.ask.label')}
        </label>
        <textarea
          id="ask-question"
          name="question"
          rows={2}
          maxLength={QUESTION_MAX}
          value={question}
          onChange={(e) => setQuestion(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              void submit();
            }
          }}
          placeholder={t('ai.ask.placeholder')}
          data-testid="ask-input"
          className="block w-full resize-y rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-1 focus:ring-brand-500"
        />
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="submit"
            disabled={!question.trim() || sending || pending || !conversation}
            data-testid="ask-send"
            className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
          >
            {t('ai.ask.send')}
          </button>
          {messages.length > 0 ? (
            <button
              type="button"
              onClick={() => void onClear()}
              disabled={pending}
              data-testid="ask-clear"
              className="rounded-lg border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50"
            >
              {t('ai.ask.clear')}
            </button>
          ) : null}
        </div>
      </form>
      {usage ? (
        <p className="text-xs text-slate-500" data-testid="ask-usage">
          {usage.limit === null
            ? t('ai.usageUnlimited', { used: usage.used })
            : t('ai.usage', { used: usage.used, limit: usage.limit })}
        </p>
      ) : null}
    </div>
  );
}

/** One answer: on its way (the text as it is written), could not find, failed, or cited text. */
function Answer({
  message,
  stream,
  folder,
  currentId,
  names,
  onSeek,
}: {
  message: AskMessageJson;
  stream: string;
  folder: boolean;
  currentId: string;
  names: Map<string, string>;
  onSeek: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  const to = useLocalePath();
  const box = 'rounded-lg border border-slate-200 px-3 py-2 text-sm';
  if (message.status === 'queued' || message.status === 'running') {
    const pieces = partialStrings(stream).filter(
      (p) =>
        p.key === 'text' &&
        p.value &&
        !NOT_FOUND_MARKER.startsWith(p.value) &&
        !p.value.includes(NOT_FOUND_MARKER),
    );
    return (
      <div className={`${box} text-slate-600`} data-testid="ask-progress">
        <p role="status" className="flex items-center gap-2">
          <span aria-hidden className="size-2 animate-pulse rounded-full bg-brand-500" />
          {message.status === 'queued' ? t('ai.stage.queued') : t('ai.ask.thinking')}
        </p>
        {pieces.length > 0 ? (
          <p data-testid="ask-stream" className="mt-1 text-slate-500">
            {pieces.map((p) => p.value).join(' ')}
            <span aria-hidden className="ml-0.5 animate-pulse">
              ▍
            </span>
          </p>
        ) : null}
      </div>
    );
  }
  if (message.status === 'failed') {
    const unavailable = ['model_missing', 'model_unavailable', 'model_invalid', 'unreachable'].includes(
      message.error_code ?? '',
    );
    return (
      <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm text-red-800">
        {unavailable ? t('ai.failedModel') : t('ai.failed')}
      </p>
    );
  }
  if (!message.found) {
    return (
      <p className={`${box} italic text-slate-600`} data-testid="ask-not-found">
        {folder ? t('ai.ask.notFoundFolder') : t('ai.ask.notFound')}
      </p>
    );
  }
  const mark = (c: AskCitation, key: number) => {
    const time = chapterClock(c.start);
    if (c.transcript_id === currentId)
      return (
        <button
          key={key}
          type="button"
          data-testid="cite"
          data-start={c.start}
          onClick={() => onSeek(c.start)}
          aria-label={t('ai.cite', { time })}
          className={cite}
        >
          [{time}]
        </button>
      );
    const name = names.get(c.transcript_id) ?? '';
    const params = new URLSearchParams({ seg: String(c.segment), t: String(c.start) });
    return (
      <Link
        key={key}
        to={`${to(`/transcript/${c.transcript_id}`)}?${params.toString()}`}
        data-testid="cite-link"
        aria-label={t('ai.ask.openAt', { name, time })}
        title={name}
        className={cite}
      >
        [{time}]
      </Link>
    );
  };
  return (
    <div className={`${box} text-slate-900`} data-testid="ask-answer">
      <span className="sr-only">{t('ai.ask.assistant')}: </span>
      {answerPieces(message.content, message.citations).map((p, i) =>
        'cite' in p ? mark(p.cite, i) : <bdi key={i}>{p.text}</bdi>,
      )}
    </div>
  );
}
