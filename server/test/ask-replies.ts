// A stand-in for a model behind an OpenAI-compatible endpoint that answers questions about the
// material mechanically: it looks for the question's longest word that the material holds and
// cites the lines holding it (and a line that does not exist, which must be dropped); when the
// material holds none of its long words, it gives the "not in the transcript" marker.
import { streamed, type ChatReply, type ChatRequest } from './chat-server';

export const NOT_FOUND = 'NOT_IN_TRANSCRIPT';

/** The question and the material of an ask prompt. */
export function askOf(req: ChatRequest): { material: string; question: string; conversation: string } {
  const user = req.body.messages.find((m) => m.role === 'user')?.content ?? '';
  const material = /^<transcripts?>\n([\s\S]*?)\n<\/transcripts?>/.exec(user)?.[1] ?? '';
  const question = /<question>\n([\s\S]*?)\n<\/question>/.exec(user)?.[1] ?? '';
  const conversation = /<conversation>\n([\s\S]*?)\n<\/conversation>/.exec(user)?.[1] ?? '';
  return { material, question, conversation };
}

export function askAnswer(req: ChatRequest): string {
  const { material, question } = askOf(req);
  const lines = [...material.matchAll(/^\[(\d+)\] \S+ (.*)$/gm)].map((m) => ({
    n: Number(m[1]),
    text: m[2]!.toLowerCase(),
  }));
  const words = [...new Set(question.toLowerCase().split(/[^\p{L}\p{N}]+/u))]
    .filter((w) => w.length >= 5)
    .sort((a, b) => b.length - a.length);
  for (const word of words) {
    const holding = lines.filter((l) => l.text.includes(word)).slice(0, 2);
    if (holding.length === 0) continue;
    return JSON.stringify({
      answer: [
        { text: `The transcript mentions ${word} [7] here.`, segments: holding.map((l) => l.n) },
        { text: 'A point the model made up.', segments: [99_999] },
      ],
    });
  }
  return JSON.stringify({ answer: [{ text: NOT_FOUND, segments: [] }] });
}

/** Answers every question, streamed in pieces of `size` characters, `gapMs` apart. */
export function askReplies(size = 12, gapMs = 0): ChatReply {
  return (req, res) => {
    const text = askAnswer(req);
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
    return streamed(pieces, { gapMs })(req, res);
  };
}
