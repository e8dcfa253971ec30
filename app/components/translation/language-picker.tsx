import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { searchLanguages, type TranslationLanguage } from '../../../common/translation-languages';
import type { TrackJson } from '../../../common/translation-types';

/**
 * A searchable list of the translation languages: each with its own name and its name in the
 * interface language; typing filters (either name or the code), ↑ ↓ Home End move, Enter picks.
 * Languages that already have a track say so.
 */
export function LanguagePicker({
  value,
  onPick,
  onConfirm,
  localName,
  tracks,
}: {
  value: string | null;
  onPick: (code: string) => void;
  /** Enter on the language already picked. */
  onConfirm: () => void;
  localName: (code: string) => string;
  tracks: ReadonlyMap<string, TrackJson>;
}) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const listId = useId();
  const list = useRef<HTMLUListElement>(null);
  const matches = useMemo(() => {
    const found = searchLanguages(query, localName);
    // Sorted by the name the reader sees.
    return found.sort((a, b) => localName(a.code).localeCompare(localName(b.code)));
  }, [query, localName]);
  const current = Math.min(active, Math.max(0, matches.length - 1));
  const optionId = (l: TranslationLanguage) => `${listId}-${l.code}`;

  useEffect(() => {
    const el = list.current?.children[current] as HTMLElement | undefined;
    el?.scrollIntoView?.({ block: 'nearest' });
  }, [current, matches]);

  const onKeyDown = (e: React.KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return;
    const last = matches.length - 1;
    const move = (to: number) => {
      e.preventDefault();
      setActive(Math.max(0, Math.min(last, to)));
    };
    if (e.key === 'ArrowDown') move(current + 1);
    else if (e.key === 'ArrowUp') move(current - 1);
    else if (e.key === 'PageDown') move(current + 8);
    else if (e.key === 'PageUp') move(current - 8);
    else if (e.key === 'Home' && e.ctrlKey) move(0);
    else if (e.key === 'End' && e.ctrlKey) move(last);
    else if (e.key === 'Enter') {
      e.preventDefault();
      const l = matches[current];
      if (!l) return;
      if (l.code === value) onConfirm();
      else onPick(l.code);
    }
  };

  const status = (code: string) => {
    const track = tracks.get(code.toLowerCase());
    if (!track) return null;
    if (track.status === 'done') return t('translation.status.done');
    if (track.status === 'queued' || track.status === 'running') return t('translation.status.running');
    return t('translation.status.failed');
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <input
        // Not type="search": Escape closes the dialog instead of clearing the field first.
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={matches[current] ? optionId(matches[current]) : undefined}
        aria-label={t('translation.search')}
        placeholder={t('translation.searchPlaceholder')}
        value={query}
        autoFocus
        onChange={(e) => {
          setQuery(e.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
        className="w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-200 focus:outline-none"
        data-testid="translate-search"
      />
      <ul
        id={listId}
        ref={list}
        role="listbox"
        aria-label={t('translation.languages')}
        className="mt-2 min-h-0 flex-1 overflow-y-auto rounded-lg border border-slate-200"
        data-testid="translate-languages"
      >
        {matches.map((l, i) => {
          const picked = l.code === value;
          const note = status(l.code);
          const shown = localName(l.code);
          return (
            <li
              key={l.code}
              id={optionId(l)}
              role="option"
              aria-selected={picked}
              data-language={l.code}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                setActive(i);
                onPick(l.code);
              }}
              className={`flex cursor-pointer items-baseline gap-2 px-3 py-1.5 text-sm ${
                i === current ? 'bg-brand-50' : ''
              } ${picked ? 'font-semibold text-brand-800' : 'text-slate-800'}`}
            >
              <span className="min-w-0 flex-1 truncate">
                <span lang={l.code}>{l.native}</span>
                {shown !== l.native ? <span className="ml-2 text-slate-500">{shown}</span> : null}
              </span>
              {note ? <span className="shrink-0 text-xs text-slate-500">{note}</span> : null}
              {picked ? (
                <span aria-hidden className="shrink-0 text-brand-700">
                  ✓
                </span>
              ) : null}
            </li>
          );
        })}
        {matches.length === 0 ? (
          <li className="px-3 py-2 text-sm text-slate-500" role="presentation">
            {t('translation.noMatch')}
          </li>
        ) : null}
      </ul>
    </div>
  );
}
