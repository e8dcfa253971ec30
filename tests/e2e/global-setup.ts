import type { TestProject } from 'vitest/node';
import { startServer, type RunningServer } from './server';
import { testModelPath } from '../../server/test/test-model';

let server: RunningServer | undefined;

export async function setup(project: TestProject) {
  // The real whisper.cpp engine runs with a small random-weight model the tests generate.
  // TRUST_PROXY lets each API-made test account come from its own client address, so the per-IP
  // sign-up limit protects the real flow without throttling the suite.
  server = await startServer({
    WHISPER_MODEL: await testModelPath(),
    WHISPER_THREADS: '1',
    TRUST_PROXY: 'true',
  });
  project.provide('baseUrl', server.url);
  project.provide('dataDir', server.dataDir);
}

export async function teardown() {
  await server?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
