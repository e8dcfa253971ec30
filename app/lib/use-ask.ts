import { joinStreamed } from '../../common/streamed-text';
import { useCallback, useEffect, useState } from 'react';
import type { AskEvent, AskMessageJson, ConversationJson } from '../../common/ask';
import { api, apiUrl } from './api';

export interface AskScope {
  kind: 'transcript' | 'folder';
  id: string;
}

const base = (s: AskScope) => `/self-api/v1/${s.kind === 'transcript' ? 'transcripts' : 'folders'}/${s.id}`;
const waiting = (m: AskMessageJson | undefined) =>
  !!m && m.role === 'assistant' && (m.status === 'queued' || m.status === 'running');

/**
 * The caller's conversation about a transcript or a folder: loaded when the scope is shown, a
 * question asked, the answer followed live (its text as the model writes it), cleared on demand.
 */
export function useAsk(scope: AskScope | null) {
  const key = scope ? `${scope.kind}:${scope.id}` : null;
  // Kept with the scope it belongs to: another scope's is never shown while this one loads.
  const [loaded, setLoaded] = useState<{
    key: string;
    conversation: ConversationJson | null;
    failed: boolean;
  }>();
  const conversation = loaded?.key === key ? loaded.conversation : null;
  const loadFailed = loaded?.key === key && loaded.failed;
  const setConversation = useCallback(
    (next: (c: ConversationJson | null) => ConversationJson | null) =>
      setLoaded((l) => (l && l.key === key ? { ...l, conversation: next(l.conversation) } : l)),
    [key],
  );
  /** The answer being written: its id and the current completion's JSON text. */
  const [stream, setStream] = useState<{ id: string; phase: number; text: string }>({
    id: '',
    phase: 0,
    text: '',
  });
  /** Bumped to follow the answer again after the stream broke off. */
  const [tick, setTick] = useState(0);

  useEffect(() => {
    if (!scope) return;
    let live = true;
    const at = key!;
    api
      .get<ConversationJson>(`${base(scope)}/conversation`, undefined, { handleErrors: true })
      .then((c) => live && setLoaded({ key: at, conversation: c, failed: false }))
      .catch(() => live && setLoaded({ key: at, conversation: null, failed: true }));
    return () => {
      live = false;
    };
    // The scope is identified by its key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const pendingId = (() => {
    const last = conversation?.messages.at(-1);
    return waiting(last) ? last!.id : null;
  })();

  useEffect(() => {
    if (!scope || !pendingId) return;
    const source = new EventSource(apiUrl(`${base(scope)}/conversation/events`), { withCredentials: true });
    const replace = (message: AskMessageJson) =>
      setConversation((c) =>
        c ? { ...c, messages: c.messages.map((m) => (m.id === message.id ? message : m)) } : c,
      );
    source.addEventListener('status', (e) => {
      const ev = JSON.parse((e as MessageEvent<string>).data) as Extract<AskEvent, { type: 'ask' }>;
      setConversation((c) =>
        c ? { ...c, messages: c.messages.map((m) => (m.id === ev.id ? { ...m, status: ev.status } : m)) } : c,
      );
    });
    source.addEventListener('token', (e) => {
      const ev = JSON.parse((e as MessageEvent<string>).data) as Extract<AskEvent, { type: 'ask-token' }>;
      setStream((s) => ({ id: ev.id, ...joinStreamed(s.id === ev.id ? s : undefined, ev) }));
    });
    source.addEventListener('message', (e) => {
      replace(JSON.parse((e as MessageEvent<string>).data) as AskMessageJson);
      source.close();
      // The month's count moved: read it again.
      api
        .get<ConversationJson>(`${base(scope)}/conversation`, undefined, { handleErrors: true })
        .then((c) => setConversation((now) => (now && c.scope.id === now.scope.id ? c : now)))
        .catch(() => undefined);
    });
    // A stream that broke off (a restart, a proxy) is not retried by the browser: look at the
    // conversation again in a moment and follow the answer anew if it is still on its way.
    let retry: ReturnType<typeof setTimeout> | undefined;
    source.onerror = () => {
      source.close();
      retry = setTimeout(() => {
        api
          .get<ConversationJson>(`${base(scope)}/conversation`, undefined, { handleErrors: true })
          .then((c) => {
            setConversation((now) => (now && c.scope.id === now.scope.id ? c : now));
            setTick((n) => n + 1);
          })
          .catch(() => undefined);
      }, 3000);
    };
    return () => {
      source.close();
      clearTimeout(retry);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, pendingId, tick]);

  const ask = useCallback(
    async (question: string) => {
      if (!scope) return;
      const made = await api.post<{ question: AskMessageJson; answer: AskMessageJson }>(
        `${base(scope)}/ask`,
        { question },
      );
      setConversation((c) => (c ? { ...c, messages: [...c.messages, made.question, made.answer] } : c));
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );

  const clear = useCallback(
    async () => {
      if (!scope) return;
      await api.del(`${base(scope)}/conversation`);
      setConversation((c) => (c ? { ...c, messages: [] } : c));
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [key],
  );

  return {
    conversation,
    loadFailed,
    stream: stream.id === pendingId ? stream.text : '',
    pending: pendingId !== null,
    ask,
    clear,
  };
}
