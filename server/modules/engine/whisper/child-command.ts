import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SERVER_BUNDLE_DIR } from '../../../paths';

export interface ChildCommand {
  execArgv: string[];
  script: string;
}

/**
 * How to start the whisper child. From source (the tests, `npm run dev`) it is child.ts with tsx's
 * loader by absolute URL, so it depends neither on the working directory nor on NODE_OPTIONS; from
 * the compiled bundle (`npm start`, scripts/build-server.mjs) it is the bundle's own
 * whisper-child.js, which needs no loader.
 */
export function childCommand(): ChildCommand {
  const self = fileURLToPath(import.meta.url);
  if (path.extname(self) !== '.ts')
    return { execArgv: ['--enable-source-maps'], script: path.join(SERVER_BUNDLE_DIR, 'whisper-child.js') };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { execArgv: ['--import', tsx], script: path.join(path.dirname(self), 'child.ts') };
}
