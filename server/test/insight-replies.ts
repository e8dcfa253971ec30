// A stand-in for a model behind an OpenAI-compatible endpoint that does the insight tasks
// (summary, chapters, their merges) mechanically: it cites the segment numbers it was given (and
// one that does not exist, which must be dropped), streamed in small pieces like a real server.
import { streamed, type ChatReply, type ChatRequest } from './chat-server';

const numbersIn = (material: string) => {
  const lines = [...material.matchAll(/^\[(\d+)\] /gm)].map((m) => Number(m[1]));
  if (lines.length) return lines;
  return [...material.matchAll(/"segments":\[([\d,]*)\]/g)].flatMap((m) =>
    m[1] ? m[1].split(',').map(Number) : [],
  );
};

/** The task's material (between the first tags) and its instructions. */
export function taskOf(req: ChatRequest): { material: string; instructions: string } {
  const user = req.body.messages.find((m) => m.role === 'user')?.content ?? '';
  const material = /^<[a-z]+[^>]*>\n([\s\S]*?)\n<\/[a-z]+>/.exec(user)?.[1] ?? '';
  const instructions = /<instructions>\n([\s\S]*?)\n<\/instructions>/.exec(user)?.[1] ?? '';
  return { material, instructions };
}

export function insightAnswer(req: ChatRequest): string {
  const { material, instructions } = taskOf(req);
  const nums = [...new Set(numbersIn(material))].sort((a, b) => a - b);
  if (/chapters/i.test(instructions)) {
    const count = /(\d+) to (\d+) chapters|(?:Make|into) (\d+) chapters/.exec(instructions);
    const max = Number(count?.[2] ?? count?.[3] ?? 3);
    const step = Math.max(1, Math.floor(nums.length / max));
    const picks = nums.filter((_, i) => i % step === 0).slice(0, max);
    return JSON.stringify({
      chapters: picks.map((n, i) => ({
        segment: n,
        title: `Topic ${n}`,
        summary: `Part ${i + 1} of the talk.`,
      })),
    });
  }
  const first = nums[0] ?? 0;
  return JSON.stringify({
    bottomLine: { text: `The talk covers ${nums.length} segments.`, segments: [first] },
    keyPoints: [
      ...nums.slice(0, 2).map((n) => ({ text: `Point from segment ${n}.`, segments: [n] })),
      { text: 'A point the model made up.', segments: [99_999] },
    ],
    decisions: [{ text: 'Ship in March.', segments: [nums.at(-1) ?? first] }],
    actionItems: [{ text: 'Send the budget.', owner: 'Tom', due: 'Friday', segments: [first] }],
    openQuestions: [],
  });
}

/** Answers every insight task, streamed in pieces of `size` characters, `gapMs` apart. */
export function insightReplies(size = 12, gapMs = 0): ChatReply {
  return (req, res) => {
    const text = insightAnswer(req);
    const pieces: string[] = [];
    for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
    return streamed(pieces, { gapMs })(req, res);
  };
}
