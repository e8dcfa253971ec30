import { useEffect, useRef } from 'react';
import { caretOffset, composing } from './caret';

const AUTOSAVE_MS = 1000;

export interface SegmentBoxProps {
  index: number;
  /** The segment's saved text. */
  text: string;
  editable: boolean;
  /** This segment is the one open for editing. */
  editing: boolean;
  isLast: boolean;
  onText: (index: number, text: string) => void;
  onSplit: (index: number, offset: number) => void;
  onMerge: (index: number) => void;
  /** Opens a segment for editing (`from`: the one Tab left, for the direction). */
  onEdit: (index: number, from?: number) => void;
  /** Closes this segment if it is still the open one. */
  onClose: (index: number) => void;
}

/**
 * The in-place editing of one segment's text, like a document: a click opens it with the caret
 * where the click landed; Enter, Tab and leaving the box save; Shift+Enter is a line break; Escape
 * cancels; Tab / Shift+Tab (or Alt+↓ / Alt+↑) go on to the next / previous segment; typing saves
 * after a pause. Split cuts at the caret; merge joins the next segment.
 */
export function useSegmentBox(p: SegmentBoxProps) {
  const { index, editing } = p;
  const box = useRef<HTMLTextAreaElement>(null);
  const shown = useRef<HTMLParagraphElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const saved = useRef(p.text);
  /** The box's latest value: the box is gone by the time a close is noticed. */
  const latest = useRef(p.text);
  const caret = useRef<number | null>(null);
  const cancelled = useRef(false);
  const refocus = useRef(false);
  const wasEditing = useRef(false);

  const save = (value: string) => {
    if (timer.current) clearTimeout(timer.current);
    const clean = value.trim();
    if (!clean || clean === saved.current) return;
    saved.current = clean;
    p.onText(index, clean);
  };
  const saveRef = useRef(save);
  useEffect(() => {
    saveRef.current = save;
  });

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  // Opening: the box takes the focus with the caret where the click was (else at the end).
  // Closing, however it happens (another segment opened, Tab, Enter, a click elsewhere): save,
  // unless Escape cancelled.
  useEffect(() => {
    if (editing) {
      wasEditing.current = true;
      const el = box.current;
      if (!el) return;
      saved.current = p.text;
      latest.current = p.text;
      const at = Math.min(caret.current ?? el.value.length, el.value.length);
      caret.current = null;
      el.focus();
      el.setSelectionRange(at, at);
      return;
    }
    if (!wasEditing.current) return;
    wasEditing.current = false;
    if (cancelled.current) cancelled.current = false;
    else saveRef.current(latest.current);
    if (refocus.current) {
      refocus.current = false;
      shown.current?.focus();
    }
    // The text is read when opening only: a save while open must not move the caret.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [editing]);

  const open = (at: number | null) => {
    if (!p.editable) return;
    caret.current = at;
    p.onEdit(index);
  };
  const moveTo = (target: number) => {
    save(box.current?.value ?? latest.current);
    p.onEdit(target, index);
  };
  /** Saves now and closes without saving again on the way out. */
  const closeSaved = () => {
    cancelled.current = true;
    p.onClose(index);
  };

  return {
    box,
    shown,
    open,
    /** A click on the shown text: opens it with the caret there (a drag that selected text does not). */
    openAtPoint(e: React.MouseEvent<HTMLElement>) {
      const selection = window.getSelection();
      if (selection && !selection.isCollapsed && e.currentTarget.contains(selection.anchorNode)) return;
      open(caretOffset(e.currentTarget, e.clientX, e.clientY));
    },
    /** A double click on word-timed text (a single click plays the word). */
    openAtDoubleClick(e: React.MouseEvent<HTMLElement>) {
      window.getSelection()?.removeAllRanges();
      open(caretOffset(e.currentTarget, e.clientX, e.clientY));
    },
    onShownKeyDown(e: React.KeyboardEvent<HTMLElement>) {
      if (e.key === 'Enter' && !composing(e)) {
        e.preventDefault();
        open(null);
      }
    },
    onChange(e: React.ChangeEvent<HTMLTextAreaElement>) {
      const value = e.target.value;
      latest.current = value;
      if (timer.current) clearTimeout(timer.current);
      timer.current = setTimeout(() => saveRef.current(value), AUTOSAVE_MS);
    },
    onBlur(e: React.FocusEvent<HTMLTextAreaElement>) {
      save(latest.current);
      // Pressing on another segment's text: stay open until its click opens it, so this box does
      // not shrink under the pointer and swallow the click.
      const next = e.relatedTarget;
      if (next instanceof HTMLElement && next.dataset.segmentText !== undefined) return;
      // Into the segment's own time fields: it stays open (they close it when the focus leaves).
      if (next instanceof HTMLElement && next.closest(`[data-segment-times="${index}"]`)) return;
      p.onClose(index);
    },
    onKeyDown(e: React.KeyboardEvent<HTMLTextAreaElement>) {
      if (composing(e)) return;
      const value = e.currentTarget.value;
      if (e.key === 'Escape') {
        e.preventDefault();
        cancelled.current = true;
        refocus.current = true;
        p.onClose(index);
      } else if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey) {
        e.preventDefault();
        save(value);
        refocus.current = true;
        p.onClose(index);
      } else if ((e.key === 'Tab' && !e.shiftKey) || (e.key === 'ArrowDown' && e.altKey)) {
        // The last segment lets Tab leave the list (saved by the blur).
        if (p.isLast) return;
        e.preventDefault();
        moveTo(index + 1);
      } else if ((e.key === 'Tab' && e.shiftKey) || (e.key === 'ArrowUp' && e.altKey)) {
        if (index === 0) return;
        e.preventDefault();
        moveTo(index - 1);
      }
    },
    split() {
      const el = box.current;
      const value = el?.value ?? latest.current;
      // The saved text is trimmed: count the caret from its first character.
      const offset = (el?.selectionStart ?? 0) - (value.length - value.trimStart().length);
      save(value);
      closeSaved();
      p.onSplit(index, offset);
    },
    merge() {
      save(box.current?.value ?? latest.current);
      closeSaved();
      p.onMerge(index);
    },
  };
}

export type SegmentBox = ReturnType<typeof useSegmentBox>;
