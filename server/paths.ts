// Where the project's files are, whether this code runs from source (server/…, through tsx or
// vitest) or from the compiled bundle (build/node/…, see scripts/build-server.mjs): the root is the
// nearest folder above this file that holds package.json.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

export const PROJECT_ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
/** The compiled server's folder: main.js, worker.js, admin.js, model-download.js, whisper-child.js, llm-child.js. */
export const SERVER_BUNDLE_DIR = path.join(PROJECT_ROOT, 'build', 'node');
