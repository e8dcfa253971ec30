import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { JobInterruptedError, RetryableError, type JobContext } from '../../jobs/queue';

const SCRIPT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../scripts/model-download.mjs',
);

/**
 * The download-model job: runs `npm run model:download -- <model>` (checksum-verified, written
 * under DATA_DIR/models) in a child process, so a shutdown or cancel can stop it at once.
 */
export async function downloadModelJob(
  dataDir: string,
  payload: { model: string },
  ctx: JobContext,
): Promise<void> {
  const { exit, stderr } = await new Promise<{ exit: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [SCRIPT, payload.model], {
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => void (err = (err + chunk.toString()).slice(-2000)));
    const stop = () => child.kill('SIGTERM');
    ctx.signal.addEventListener('abort', stop, { once: true });
    child.on('error', reject);
    child.on('close', (code) => {
      ctx.signal.removeEventListener('abort', stop);
      resolve({ exit: code, stderr: err });
    });
  });
  if (ctx.signal.aborted) {
    if (ctx.signal.reason === 'shutdown') throw new JobInterruptedError();
    return; // canceled: the script removed its partial file
  }
  if (exit === 0) return;
  // 2: an unknown model name or bad arguments; trying again would not help.
  if (exit === 2) throw new Error(`unknown model "${payload.model}"`);
  throw new RetryableError(lastLine(stderr));
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? 'model download failed';
}
