// Children that die with this process. A server or worker killed with SIGKILL cannot clean up, and
// its children (the database set-up, the whisper engine, ffmpeg) would go on as orphans: burning CPU
// against the job another process has taken up, or writing to a database another process now opens.
// On Linux the kernel sends them SIGKILL when their parent dies (PR_SET_PDEATHSIG through
// util-linux's setpriv, which then executes the command in place: same pid, so child.kill() still
// reaches it). Elsewhere Node children watch their parent themselves (./lifeline.ts).
import { spawn, spawnSync, type SpawnOptions } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import { onPath } from '../modules/media/binaries';

let setpriv: string | null | undefined;

/** setpriv when it is there and knows --pdeathsig (util-linux 2.33+, Linux only). */
function setprivPath(): string | null {
  if (setpriv !== undefined) return setpriv;
  setpriv = null;
  if (process.platform !== 'linux' || process.env.CLIPSCRIBE_NO_PDEATHSIG === '1') return setpriv;
  const found = onPath('setpriv');
  if (found && spawnSync(found, ['--pdeathsig', 'KILL', '--', 'true'], { stdio: 'ignore' }).status === 0)
    setpriv = found;
  return setpriv;
}

/** Whether children started by spawnTied get the parent-death signal here. */
export const parentDeathSignal = (): boolean => setprivPath() !== null;

/** The command as an executable path, or null when it cannot be run (then spawn reports ENOENT itself). */
function runnable(command: string): string | null {
  if (!command.includes(path.sep)) return onPath(command);
  try {
    accessSync(command, constants.X_OK);
    return command;
  } catch {
    return null;
  }
}

/** spawn(), with the child killed by the kernel when this process dies (where the platform can). */
export const spawnTied = ((command: string, args: readonly string[] = [], options: SpawnOptions = {}) => {
  const wrapper = setprivPath();
  const target = wrapper ? runnable(command) : null;
  if (!wrapper || !target) return spawn(command, args, options);
  return spawn(wrapper, ['--pdeathsig', 'KILL', '--', target, ...args], options);
}) as typeof spawn;
