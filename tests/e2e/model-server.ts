// The browser tests of the AI panel, Ask, templates and translations: the product started with its
// language model at a local endpoint speaking the chat completions protocol (server/test/chat-server).
import type { ChatServer } from '../../server/test/chat-server';
import { startServer, type RunningServer } from './server';

export function startServerWithModel(chat: ChatServer): Promise<RunningServer> {
  return startServer({
    LLM_BASE_URL: `${chat.url}/v1`,
    LLM_MODEL: 'e2e-model',
    WHISPER_MODEL_AUTO_DOWNLOAD: 'false',
    TRUST_PROXY: 'true',
  });
}

const clock = (s: number) =>
  `00:${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;

/** Eight WebVTT cues 50 s apart (a 400 s recording), cue i saying `line(i)`. */
export const meetingVtt = (line: (i: number) => string) =>
  `WEBVTT\n\n${Array.from(
    { length: 8 },
    (_, i) => `${clock(i * 50 + 1)} --> ${clock(i * 50 + 9)}\n${line(i)}`,
  ).join('\n\n')}\n`;
