// The engine benches' input: raw PCM as whisper.cpp takes it (16 kHz, mono, s16le).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const PCM = ['-ar', '16000', '-ac', '1', '-f', 's16le'];

/** Decodes any media file ffmpeg reads into `pcm`; throws with ffmpeg's message when it cannot. */
export function decodeToPcm(input, pcm) {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-i', input, ...PCM, pcm]);
}

/**
 * `seconds` of English speech (espeak-ng, looped to length: it is closer to real work than a
 * tone, it is what the encoder sees), else a 440 Hz tone; kept in `dir` for the next run.
 * `kind` says which one it is.
 */
export function benchSpeech(dir, seconds) {
  const pcm = path.join(dir, `speech-${seconds}s.pcm`);
  if (existsSync(pcm) && existsSync(`${pcm}.kind`)) return { pcm, kind: readFileSync(`${pcm}.kind`, 'utf8') };
  let kind = 'espeak-ng speech';
  const wav = path.join(dir, 'speech.wav');
  const text =
    'This is a benchmark of speech recognition. The quick brown fox jumps over the lazy dog. ' +
    'Every run uses the same audio, the same model file and the same number of threads, ' +
    'so the only difference left is the binding and the code it was compiled to.';
  const espeak = spawnSync('espeak-ng', ['-w', wav, text], { stdio: 'ignore' });
  let input = ['-stream_loop', '-1', '-i', wav];
  if (espeak.error || espeak.status !== 0) {
    kind = 'ffmpeg 440 Hz tone';
    input = ['-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`];
  }
  const args = ['-hide_banner', '-loglevel', 'error', '-y', ...input, '-t', String(seconds), ...PCM, pcm];
  const res = spawnSync('ffmpeg', args, { stdio: 'inherit' });
  rmSync(wav, { force: true });
  if (res.status !== 0) throw new Error('ffmpeg failed to make the bench audio');
  writeFileSync(`${pcm}.kind`, kind);
  return { pcm, kind };
}
