// An app (PGlite, the database queue's language lane running) whose `openai` language-model adapter
// points at a local server speaking the chat completions protocol: the AI outputs' API tests.
import { startChatServer, type ChatServer } from './chat-server';
import { testApp } from './harness';

export async function testAppWithModel(): Promise<{
  chat: ChatServer;
  h: Awaited<ReturnType<typeof testApp>>;
  close: () => Promise<void>;
}> {
  const chat = await startChatServer();
  const h = await testApp({}, { LLM_BASE_URL: `${chat.url}/v1`, LLM_MODEL: 'fake-model' });
  h.deps.services.startLanguageWorker();
  return {
    chat,
    h,
    close: async () => {
      await h.close();
      await chat.close();
    },
  };
}
