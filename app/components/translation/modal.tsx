import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal dialog (the browser's <dialog>: focus kept inside, Escape closes, the page behind
 * inert), full width on phones, with a title bar and a close button.
 */
export function Modal({
  open,
  onClose,
  title,
  children,
  testId,
  wide = false,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: React.ReactNode;
  testId?: string;
  wide?: boolean;
}) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (open && !el.open) el.showModal();
    if (!open && el.open) el.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      onCancel={onClose}
      // A click on the backdrop (the dialog element itself, outside its box) closes it.
      onClick={(e) => e.target === e.currentTarget && onClose()}
      aria-label={title}
      data-testid={testId}
      className={`m-auto max-h-[calc(100dvh-2rem)] w-[calc(100vw-1.5rem)] ${wide ? 'max-w-3xl' : 'max-w-lg'} overflow-hidden rounded-xl bg-white p-0 shadow-xl backdrop:bg-slate-900/40`}
    >
      {open ? (
        <div className="flex max-h-[calc(100dvh-2rem)] flex-col p-4 sm:p-5">
          <div className="mb-3 flex items-start justify-between gap-3">
            <h2 className="text-lg font-semibold text-slate-900">{title}</h2>
            <button
              type="button"
              onClick={onClose}
              className="-mt-1 -mr-1 rounded-md px-2 py-1 text-slate-500 hover:bg-slate-100 hover:text-slate-800"
              aria-label={t('translation.close')}
            >
              ✕
            </button>
          </div>
          {children}
        </div>
      ) : null}
    </dialog>
  );
}
