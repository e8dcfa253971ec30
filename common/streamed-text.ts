// Text a model writes piece by piece reaches the page as pieces that know where they start. A
// page that starts listening late asks the writer to send what it has so far (a piece at 0); the
// pieces it then gets overlap, and a piece after a gap waits for that resend.

/** One written piece: `at` characters of the phase came before it. */
export interface StreamedPiece {
  phase: number;
  at: number;
  text: string;
}

export interface StreamedText {
  phase: number;
  text: string;
}

/** The text known so far with one more piece joined in (overlaps skipped, older phases ignored). */
export function joinStreamed(known: StreamedText | undefined, piece: StreamedPiece): StreamedText {
  const base = !known || piece.phase > known.phase ? { phase: piece.phase, text: '' } : known;
  if (piece.phase < base.phase || piece.at > base.text.length) return base;
  const end = piece.at + piece.text.length;
  if (end <= base.text.length) return base;
  return { phase: base.phase, text: base.text + piece.text.slice(base.text.length - piece.at) };
}
