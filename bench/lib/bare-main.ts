// The production server with bench/ssr.mjs's yardstick beside it: the same server as
// server/main.ts, plus bare Hono handlers (./bare-handlers.ts) on BENCH_BARE_PORT, in the same
// process and on the same database handle. bench/ssr.mjs compiles this file like the server
// (scripts/build-server.mjs) and runs it instead of build/node/main.js.
import { serve } from '../../server/serve';
import { startBareBench } from './bare-handlers';

const port = Number(process.env.BENCH_BARE_PORT ?? 0);
serve({ dev: false }).then(
  ({ db, host }) => {
    if (port) startBareBench(db, port, host);
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
