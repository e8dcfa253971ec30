import { spawnTied } from '../../process/tied-spawn';
import { MediaError } from './media-error';

/** whisper.cpp's input: mono 16 kHz; s16le halves the disk size of f32. */
export const PCM_SAMPLE_RATE = 16_000;
export const PCM_BYTES_PER_SECOND = PCM_SAMPLE_RATE * 2;

/**
 * Decodes the first audio track of any media ffmpeg reads into raw PCM on disk. ffmpeg streams
 * from file to file, so memory stays flat whatever the length.
 */
export function decodeToPcm(
  ffmpeg: string,
  input: string,
  output: string,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new MediaError('canceled', 'Canceled'));
    const child = spawnTied(
      ffmpeg,
      [
        '-nostdin',
        '-hide_banner',
        '-v',
        'error',
        '-y',
        '-i',
        input,
        '-map',
        '0:a:0',
        '-vn',
        '-ac',
        '1',
        '-ar',
        String(PCM_SAMPLE_RATE),
        '-f',
        's16le',
        output,
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 4000) stderr += c.toString('utf8');
    });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.on('error', (err) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new MediaError('decode_failed', `ffmpeg could not start: ${err.message}`));
    });
    child.on('close', (code) => {
      signal?.removeEventListener('abort', onAbort);
      if (signal?.aborted) return reject(new MediaError('canceled', 'Canceled'));
      if (code === 0) return resolve();
      const reason = stderr.trim().split('\n').slice(-3).join(' ');
      reject(new MediaError('decode_failed', reason || `ffmpeg exited with code ${code}`));
    });
  });
}
