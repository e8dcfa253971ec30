import type { TestProject } from 'vitest/node';
import { rmSync } from 'node:fs';
import { makeTemplateDataDir, startServer, type RunningServer } from './server';
import { testModelPath } from '../../server/test/test-model';

let server: RunningServer | undefined;
let template: string | undefined;

export async function setup(project: TestProject) {
  // Every server the suite starts on a new data dir copies this one (tests/e2e/server.ts): the
  // database is set up once, not once per file. Test files run in workers that inherit the env.
  template = await makeTemplateDataDir({ WHISPER_MODEL_AUTO_DOWNLOAD: 'false' });
  process.env.CS_E2E_TEMPLATE_DIR = template;
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
  if (template) rmSync(template, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}
