import path from 'node:path';
import { JobInterruptedError, RetryableError, type JobContext } from '../../jobs/queue';
import { expectedSha1, expectedSha256, isKnownModel, modelFileName, modelUrl } from '../models/catalogue';
import { downloadFile, DownloadError } from '../models/download';
import type { ModelProvisioner } from '../models/provision';

export interface ModelDownloadTarget {
  /** Models go to <dataDir>/models. */
  dataDir: string;
  /** WHISPER_MODEL_BASE_URL. */
  baseUrl: string;
  /** WHISPER_MODEL_SHA1 (applies to the configured model). */
  sha1?: string | null;
  headers?: Record<string, string>;
  /** The engine's own model: its download shows on waiting jobs (models/provision.ts). */
  provisioner?: ModelProvisioner | null;
  /** Other models fetched the same way (the local language model), by their provisioner's name. */
  provisioners?: ModelProvisioner[];
}

/**
 * The download-model job: fetches a model of the table into DATA_DIR/models (resumable, verified,
 * atomic: models/download.ts). The engine's configured model goes through its provisioner, so
 * transcriptions waiting for it see the progress and start once it is there.
 */
export async function downloadModelJob(
  target: ModelDownloadTarget,
  payload: { model: string },
  ctx: JobContext,
): Promise<void> {
  const own =
    [target.provisioner, ...(target.provisioners ?? [])].find((p) => p?.name === payload.model) ?? null;
  try {
    if (own) {
      await own.runOnce(ctx.signal);
      return;
    }
    // Any other model of the table (an operator's choice): same download, no waiting jobs.
    if (!isKnownModel(payload.model)) throw new Error(`unknown model "${payload.model}"`);
    await downloadFile({
      url: modelUrl(payload.model, target.baseUrl),
      dest: path.join(target.dataDir, 'models', modelFileName(payload.model)),
      sha1: expectedSha1(payload.model),
      sha256: expectedSha256(payload.model),
      headers: target.headers,
      signal: ctx.signal,
    });
  } catch (err) {
    if (ctx.signal.aborted) {
      if (ctx.signal.reason === 'shutdown') throw new JobInterruptedError();
      return; // canceled: the partial file stays for a later resume
    }
    if (err instanceof DownloadError && err.retryable) {
      if (ctx.attempt < ctx.maxAttempts) throw new RetryableError(err.message);
      own?.gaveUp();
    }
    throw err;
  }
}
