import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { countMatches, MAX_FIND_LENGTH } from '../../../common/find-replace';
import type { Segment } from '../../../common/segments';

/** Finding text in a transcript: the term, the segments that hold it, and the one shown. */
export function useFind(segments: Segment[], list: React.RefObject<HTMLElement | null>) {
  const [term, setTermState] = useState('');
  const [hit, setHit] = useState(0);
  const { total, indexes: matches } = useMemo(() => countMatches(segments, term.trim()), [segments, term]);

  const show = useCallback(
    (n: number) => {
      if (!matches.length) return;
      const k = ((n % matches.length) + matches.length) % matches.length;
      setHit(k);
      list.current?.querySelector(`[data-segment="${matches[k]}"]`)?.scrollIntoView({ block: 'center' });
    },
    [matches, list],
  );
  const setTerm = useCallback((value: string) => {
    setTermState(value);
    setHit(0);
  }, []);

  return { term, setTerm, matches, total, hit: Math.min(hit, Math.max(0, matches.length - 1)), show };
}

export type FindState = ReturnType<typeof useFind>;

export interface ReplaceActions {
  /** Replaces in one segment (index) or everywhere; resolves to how many were replaced. */
  replace: (find: string, replacement: string, index?: number) => Promise<number>;
  undo: () => void;
}

const small =
  'rounded-lg border border-slate-300 bg-white px-2.5 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-50';

/**
 * The find box: Enter goes to the next match, Shift+Enter to the previous one. With `actions`,
 * a Replace row replaces the shown match's segment or every occurrence, then offers Undo.
 */
export function FindBar({ find, actions }: { find: FindState; actions?: ReplaceActions }) {
  const { t } = useTranslation();
  const { term, matches, total, hit } = find;
  const [replacing, setReplacing] = useState(false);
  const [replacement, setReplacement] = useState('');
  const [busy, setBusy] = useState(false);
  const needle = term.trim();

  const run = async (index?: number) => {
    if (!actions || !needle || busy) return;
    setBusy(true);
    try {
      const count = await actions.replace(needle, replacement, index);
      if (count > 0) {
        toast.success(t('editor.replaced', { count }), {
          action: { label: t('editor.undo'), onClick: actions.undo },
        });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <input
        type="search"
        value={term}
        maxLength={MAX_FIND_LENGTH}
        onChange={(e) => find.setTerm(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && find.show(e.shiftKey ? hit - 1 : hit + 1)}
        placeholder={t('editor.find')}
        aria-label={t('editor.find')}
        className="min-w-[10rem] flex-1 rounded-lg border border-slate-300 px-3 py-1.5 text-sm"
      />
      {needle ? (
        <span className="text-xs text-slate-500" data-testid="matches" aria-live="polite">
          {matches.length
            ? t('editor.matches', { n: hit + 1, total: matches.length })
            : t('editor.noMatches')}
        </span>
      ) : null}
      {actions ? (
        <button
          type="button"
          className={small}
          aria-expanded={replacing}
          aria-controls="replace-row"
          onClick={() => setReplacing((r) => !r)}
        >
          {t('editor.replace')}
        </button>
      ) : null}
      {actions && replacing ? (
        <div id="replace-row" className="flex basis-full flex-wrap items-center gap-2">
          <input
            type="text"
            value={replacement}
            maxLength={MAX_FIND_LENGTH}
            onChange={(e) => setReplacement(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && !e.nativeEvent.isComposing) void run(matches[hit]);
            }}
            placeholder={t('editor.replaceWith')}
            aria-label={t('editor.replaceWith')}
            className="min-w-[12rem] flex-1 rounded-lg border border-slate-300 px-3 py-1.5 text-sm"
          />
          <button
            type="button"
            className={small}
            disabled={busy || matches.length === 0}
            onClick={() => void run(matches[hit])}
          >
            {t('editor.replaceOne')}
          </button>
          <button
            type="button"
            className={small}
            disabled={busy || total === 0}
            onClick={() => void run()}
            data-testid="replace-all"
          >
            {total > 0 ? t('editor.replaceAllCount', { count: total }) : t('editor.replaceAll')}
          </button>
        </div>
      ) : null}
    </>
  );
}
