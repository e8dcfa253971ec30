// Imported first by the Node children this server starts (the whisper engine's child, the database
// set-up): where the kernel cannot kill them with their parent (no setpriv, not Linux:
// ./tied-spawn.ts), they notice that the parent is gone (they are handed to another parent) and
// end themselves. Checked between the child's native calls, so within one chunk of work at worst.
const parent = process.ppid;
const timer = setInterval(() => {
  if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL');
}, 1000);
timer.unref();

export {};
