// Caret and keyboard details the in-place segment editor needs.

/** Where a click landed in an element's text, as an offset into that text (null: not in it). */
export function caretOffset(container: HTMLElement, x: number, y: number): number | null {
  const doc = container.ownerDocument as Document & {
    caretPositionFromPoint?: (x: number, y: number) => { offsetNode: Node; offset: number } | null;
  };
  let node: Node | null = null;
  let offset = 0;
  const pos = doc.caretPositionFromPoint?.(x, y);
  if (pos) {
    node = pos.offsetNode;
    offset = pos.offset;
  } else {
    const range = doc.caretRangeFromPoint?.(x, y);
    if (range) {
      node = range.startContainer;
      offset = range.startOffset;
    }
  }
  if (!node || !container.contains(node)) return null;
  const before = doc.createRange();
  before.setStart(container, 0);
  before.setEnd(node, offset);
  return before.toString().length;
}

/** Keys that would act twice while an input method (Japanese, Chinese …) is composing. */
export function composing(e: React.KeyboardEvent): boolean {
  return e.nativeEvent.isComposing || e.keyCode === 229;
}
