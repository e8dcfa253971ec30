// The sherpa-onnx engines the environment turns on (ENGINE_FAMILIES), each with provisioners that
// fetch its files on first need (resumable, checksummed where a checksum is known, from the origin
// or the family's mirror variable), like the Whisper model.
import type { Env } from '../../../env';
import type { Logger } from '../../../logger';
import type { DiarizationPaths } from '../../speakers/diarization/models';
import { createModelProvisioner, type ModelProvisioner } from '../models/provision';
import { createSherpaEngine, type SherpaEngine } from './engine';
import { SHERPA_FAMILIES, sherpaDir, sherpaFileUrl, sherpaPaths, type SherpaFamily } from './families';

export function createSherpaEngines(
  env: Env,
  logger: Logger,
  diarization: { paths: DiarizationPaths; provisioners: ModelProvisioner[] },
  headers?: Record<string, string>,
): Partial<Record<SherpaFamily, SherpaEngine>> {
  const engines: Partial<Record<SherpaFamily, SherpaEngine>> = {};
  for (const family of env.ENGINE_FAMILIES) {
    const spec = SHERPA_FAMILIES[family];
    const dir = sherpaDir(spec, env);
    const paths = sherpaPaths(spec, dir);
    const mirror = env[spec.mirrorVariable];
    const provisioners = spec.files.map((file) =>
      createModelProvisioner({
        name: `${family}-${file.role}`,
        path: paths[file.role]!,
        url: sherpaFileUrl(spec, file, mirror),
        sha256: file.sha256,
        sha1: null,
        label: `${spec.model} ${file.role} file`,
        advice:
          `What to do: give this server access to ${new URL(spec.origin).origin}, or set ${spec.mirrorVariable} ` +
          `to a mirror that serves ${file.file}, or put the files in ${spec.dirVariable}, ` +
          `or turn the family off (ENGINE_FAMILIES); Whisper then transcribes these languages.`,
        autoDownload: env.WHISPER_MODEL_AUTO_DOWNLOAD,
        headers,
        logger,
      }),
    );
    engines[family] = createSherpaEngine({
      spec,
      paths,
      provisioners,
      diarization,
      threads: env.WHISPER_THREADS,
      watchdogMs: env.WHISPER_WATCHDOG_MS,
      logger,
    });
  }
  return engines;
}
