// `npm start` (the web server) and `npm run worker | admin | model:download`: builds what is missing
// or older than its sources, then runs the compiled entry (build/node/<entry>.js) in this very
// process: no tsx, no second node process. `node scripts/start.mjs [worker|admin|model-download] …`
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { newestMtime, SERVER_ENTRIES, SERVER_OUT, serverBuildIsStale } from './build-server.mjs';

const WEB_BUILD = 'build/server/index.js';
const WEB_SOURCES = [
  'app',
  'common',
  'public',
  'vite.config.ts',
  'react-router.config.ts',
  'package-lock.json',
];

const entry = process.argv[2] in SERVER_ENTRIES && process.argv[2] !== 'main' ? process.argv[2] : 'main';
if (entry !== 'main') process.argv.splice(2, 1);

if (entry === 'main') {
  const builtAt = existsSync(WEB_BUILD) ? statSync(WEB_BUILD).mtimeMs : 0;
  if (builtAt === 0 || Math.max(...WEB_SOURCES.map(newestMtime)) > builtAt) {
    console.log('Building the web app…');
    const r = spawnSync('npx', ['react-router', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
// In a child process, so this one never holds esbuild.
if (serverBuildIsStale()) {
  const r = spawnSync(process.execPath, [path.join(import.meta.dirname, 'build-server.mjs')], {
    stdio: ['ignore', entry === 'main' ? 'inherit' : 'ignore', 'inherit'],
  });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

if (existsSync('.env')) process.loadEnvFile('.env');
if (entry === 'main' || entry === 'worker') process.env.NODE_ENV ??= 'production';
process.setSourceMapsEnabled(true);
// The entry sees the command line it would have had when started directly.
const script = path.join(SERVER_OUT, `${entry}.js`);
process.argv[1] = script;
await import(pathToFileURL(script).href);
