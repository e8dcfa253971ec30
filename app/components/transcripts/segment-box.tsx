import { useTranslation } from 'react-i18next';

/** The open segment: its text in a box that grows with it, and Split / Merge beneath. */
export function SegmentBox({
  index,
  text,
  isLast,
  boxRef,
  onChange,
  onBlur,
  onKeyDown,
  onSplit,
  onMerge,
}: {
  index: number;
  text: string;
  isLast: boolean;
  boxRef: React.Ref<HTMLTextAreaElement>;
  onChange: React.ChangeEventHandler<HTMLTextAreaElement>;
  onBlur: React.FocusEventHandler<HTMLTextAreaElement>;
  onKeyDown: React.KeyboardEventHandler<HTMLTextAreaElement>;
  onSplit: () => void;
  onMerge: () => void;
}) {
  const { t } = useTranslation();
  // Buttons of the open box keep the focus in it (no blur, no save-and-close before they act).
  const keepFocus = (e: React.MouseEvent) => e.preventDefault();
  const button = 'rounded px-2 py-1 text-slate-600 hover:bg-slate-100';
  return (
    <div className="min-w-0 flex-1">
      <textarea
        ref={boxRef}
        defaultValue={text}
        rows={1}
        aria-label={t('editor.editSegment')}
        aria-describedby={`segment-keys-${index}`}
        onChange={onChange}
        onBlur={onBlur}
        onKeyDown={onKeyDown}
        className="block min-h-[2.75rem] w-full resize-none rounded-md border border-brand-300 bg-white px-2 py-1 text-slate-800 [field-sizing:content] focus:ring-2 focus:ring-brand-200 focus:outline-none"
      />
      <div className="mt-1 flex flex-wrap items-center gap-2 text-xs">
        <button type="button" tabIndex={-1} onMouseDown={keepFocus} className={button} onClick={onSplit}>
          {t('editor.split')}
        </button>
        {!isLast ? (
          <button type="button" tabIndex={-1} onMouseDown={keepFocus} className={button} onClick={onMerge}>
            {t('editor.merge')}
          </button>
        ) : null}
        <span id={`segment-keys-${index}`} className="ml-auto hidden text-slate-500 sm:inline">
          {t('editor.editKeys')}
        </span>
      </div>
    </div>
  );
}
