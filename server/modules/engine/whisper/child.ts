// Child-process entry of the whisper engine: one process per job, one model context per process,
// so a native crash, a hang or a kill never touches the server.
//
//   node [--import tsx] child.ts '<ChildJob JSON>'
//
// Messages go to the parent on fd 3 (child-io.ts); the job itself is child-run.ts.
// First: where the kernel cannot end this process with its parent, it ends itself.
import '../../../process/lifeline';
import type { ChildJob } from './child-protocol';
import { runJob } from './child-run';

const arg = process.argv[2];
if (!arg) {
  process.stderr.write('usage: child.ts <job JSON>\n');
  process.exit(2);
}
runJob(JSON.parse(arg) as ChildJob).then(
  // Exit explicitly: the binding's thread-safe callbacks can keep the event loop alive.
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
    process.exit(1);
  },
);
