// A test's app in a process of its own, for tests that kill it (kill -9, SIGTERM) and look at
// what it leaves behind: the real services (PGlite on DATA_DIR/pglite, the job runner with the
// engine's child, the scratch folder) behind the API, without the page build.
//   node --import tsx server/test/app-process.ts   (env: DATA_DIR, PORT, WHISPER_MODEL …)
import { createServer } from 'node:http';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { createLogger } from '../logger';
import { testApp } from './harness';

const dataDir = path.resolve(process.env.DATA_DIR!);
const h = await testApp(
  {},
  {
    DATA_DIR: dataDir,
    WHISPER_MODEL: process.env.WHISPER_MODEL ?? '',
    WHISPER_THREADS: process.env.WHISPER_THREADS ?? '1',
  },
  { pgliteDir: path.join(dataDir, 'pglite'), worker: true, logger: createLogger('info') },
);
const server = createServer((req, res) => void getRequestListener(h.app.fetch)(req, res));
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log(JSON.stringify({ listening: true })));
process.once('SIGTERM', () => {
  server.close();
  void h.close().then(() => process.exit(0));
});
