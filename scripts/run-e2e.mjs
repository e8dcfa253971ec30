// `npm run test:e2e`: build the app (web and server), then run the browser suite against it.
import { spawnSync } from 'node:child_process';

const build = spawnSync('npx', ['react-router', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (build.status !== 0) process.exit(build.status ?? 1);
const server = spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: ['ignore', 'ignore', 'inherit'] });
if (server.status !== 0) process.exit(server.status ?? 1);
const run = spawnSync(
  'npx',
  ['vitest', 'run', '--config', 'vitest.e2e.config.ts', ...process.argv.slice(2)],
  {
    stdio: 'inherit',
  },
);
process.exit(run.status ?? 1);
