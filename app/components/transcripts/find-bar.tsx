import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Segment } from '../../../common/segments';

/** Finding text in a transcript: the term, the segments that hold it, and the one shown. */
export function useFind(segments: Segment[], list: React.RefObject<HTMLElement | null>) {
  const [term, setTermState] = useState('');
  const [hit, setHit] = useState(0);
  const matches = useMemo(() => {
    const needle = term.trim().toLocaleLowerCase();
    if (!needle) return [];
    return segments.flatMap((s, i) => (s.text.toLocaleLowerCase().includes(needle) ? [i] : []));
  }, [segments, term]);

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

  return { term, setTerm, matches, hit, show };
}

export type FindState = ReturnType<typeof useFind>;

/** The find box: Enter goes to the next match, Shift+Enter to the previous one. */
export function FindBar({ find }: { find: FindState }) {
  const { t } = useTranslation();
  const { term, matches, hit } = find;
  return (
    <>
      <input
        type="search"
        value={term}
        onChange={(e) => find.setTerm(e.target.value)}
        onKeyDown={(e) => e.key === 'Enter' && find.show(e.shiftKey ? hit - 1 : hit + 1)}
        placeholder={t('editor.find')}
        aria-label={t('editor.find')}
        className="min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-1.5 text-sm"
      />
      {term.trim() ? (
        <span className="text-xs text-slate-500" data-testid="matches">
          {matches.length
            ? t('editor.matches', { n: hit + 1, total: matches.length })
            : t('editor.noMatches')}
        </span>
      ) : null}
    </>
  );
}
