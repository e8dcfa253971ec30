// `npm run model:download -- <name> [--force]`: fetches a whisper.cpp model (ggml-<name>.bin), or a
// language model of server/modules/language-model/catalogue.ts (LLM_MODEL_BASE_URL a mirror), into
// <DATA_DIR or ./data>/models/ for operators who want it before the server starts (the server also
// fetches its configured model by itself). Resumes an interrupted download, checks the SHA-1 from
// the model table (server/modules/engine/models/catalogue.ts) and moves the file into place only
// once it matches.
//
// Environment: DATA_DIR; WHISPER_MODEL_NAME (the default name, else base);
// WHISPER_MODEL_BASE_URL (a mirror; default Hugging Face); WHISPER_MODEL_SHA1 (the expected SHA-1,
// overriding the table: for mirrors serving other files, and tests); HF_TOKEN (sent as a bearer token).
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  expectedSha1,
  expectedSha256,
  isKnownModel,
  modelFileName,
  modelUrl,
  DEFAULT_MODEL_BASE_URL,
  WHISPER_MODELS,
} from '../server/modules/engine/models/catalogue';
import { downloadFile, DownloadError, type DownloadProgress } from '../server/modules/engine/models/download';
import {
  isKnownLlmModel,
  LLM_MODELS,
  llmModelFile,
  llmModelUrl,
} from '../server/modules/language-model/catalogue';
import {
  DIARIZATION_MODELS,
  diarizationModelUrl,
  diarizationPaths,
} from '../server/modules/speakers/diarization/models';

const MB = 1024 * 1024;
const log = (line: string) => process.stderr.write(`${line}\n`);

function usage() {
  log('usage: npm run model:download -- <name> [--force]');
  log(`models: ${Object.keys(WHISPER_MODELS).join(', ')}; diarization (the speaker models)`);
  log(`language models: ${Object.keys(LLM_MODELS).join(', ')}`);
}

/**
 * `diarization`: the speaker-segmentation and speaker-embedding models into
 * DATA_DIR/models/diarization (DIARIZATION_MODEL_DIR), from where they are published or from
 * DIARIZATION_MODEL_BASE_URL. No checksum is published for them: the size is reported instead.
 */
async function downloadDiarization(force: boolean): Promise<number> {
  const paths = diarizationPaths({
    DATA_DIR: path.resolve(process.env.DATA_DIR || 'data'),
    DIARIZATION_MODEL_DIR: process.env.DIARIZATION_MODEL_DIR,
  });
  for (const model of DIARIZATION_MODELS) {
    const dest = model.role === 'segmentation' ? paths.segmentation : paths.embedding;
    if (existsSync(dest) && !force) {
      log(`${dest} already exists (use --force to download it again).`);
      continue;
    }
    const url = diarizationModelUrl(model, process.env.DIARIZATION_MODEL_BASE_URL);
    log(`downloading ${url}`);
    const progress = progressReporter(model.file);
    try {
      const result = await downloadFile({
        url,
        dest,
        sha1: model.sha1,
        onProgress: (p) => progress.update(p),
      });
      progress.finish();
      log(`saved ${dest} (SHA-1 ${result.sha1}; no published checksum to compare with).`);
    } catch (err) {
      if (!(err instanceof DownloadError)) throw err;
      log(`\ndownload failed: ${err.message}`);
      if (err.retryable) log('run the same command again to resume.');
      return 1;
    }
  }
  return 0;
}

/** A progress line on stderr: redrawn in place on a terminal, one line every 5 s otherwise. */
function progressReporter(label: string) {
  const tty = process.stderr.isTTY;
  const started = Date.now();
  let lastDraw = 0;
  let first: number | null = null;
  let last: DownloadProgress = { bytes: 0, total: null };
  const draw = (final: boolean) => {
    const now = Date.now();
    if (!final && now - lastDraw < (tty ? 200 : 5000)) return;
    lastDraw = now;
    const { bytes, total } = last;
    const secs = Math.max(0.001, (now - started) / 1000);
    const speed = `${((bytes - (first ?? 0)) / MB / secs).toFixed(1)} MB/s`;
    let line: string;
    if (total) {
      const ratio = Math.min(1, bytes / total);
      const fill = Math.round(ratio * 30);
      line =
        `${label} [${'#'.repeat(fill)}${'-'.repeat(30 - fill)}] ${(ratio * 100).toFixed(1).padStart(5)}% ` +
        `${(bytes / MB).toFixed(1)}/${(total / MB).toFixed(1)} MB ${speed}`;
    } else {
      line = `${label} ${(bytes / MB).toFixed(1)} MB ${speed}`;
    }
    if (tty) process.stderr.write(`\r${line}\x1b[K${final ? '\n' : ''}`);
    else log(line);
  };
  return {
    update(p: DownloadProgress) {
      first ??= p.bytes;
      last = p;
      draw(false);
    },
    finish: () => draw(true),
  };
}

export async function main(argv: string[]): Promise<number> {
  const force = argv.includes('--force');
  const names = argv.filter((a) => a !== '--force');
  if (names.length > 1 || names.some((a) => a.startsWith('-'))) {
    usage();
    return 2;
  }
  const name = names[0] ?? (process.env.WHISPER_MODEL_NAME || 'base');
  if (name === 'diarization') return downloadDiarization(force);
  const llm = isKnownLlmModel(name);
  if (!isKnownModel(name) && !llm) {
    log(`unknown model "${name}".`);
    usage();
    return 2;
  }

  const dir = path.join(path.resolve(process.env.DATA_DIR || 'data'), 'models');
  const file = llm ? llmModelFile(name) : modelFileName(name);
  const dest = path.join(dir, file);
  if (existsSync(dest) && !force) {
    log(`${dest} already exists (use --force to download it again).`);
    return 0;
  }
  // A language model (GGUF) comes from LLM_MODEL_BASE_URL or its publisher, checked by SHA-256.
  const sha1 = llm ? null : expectedSha1(name, process.env.WHISPER_MODEL_SHA1);
  const sha256 = llm
    ? process.env.LLM_MODEL_SHA256?.toLowerCase() || (LLM_MODELS[name]?.sha256 ?? null)
    : expectedSha256(name, process.env.WHISPER_MODEL_SHA1);
  const url = llm
    ? llmModelUrl(name, process.env.LLM_MODEL_BASE_URL)!
    : modelUrl(name, process.env.WHISPER_MODEL_BASE_URL || DEFAULT_MODEL_BASE_URL);
  const controller = new AbortController();
  // Ctrl-C keeps the partial file: the next run resumes it.
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  log(`downloading ${url}`);
  const progress = progressReporter(file);
  try {
    const result = await downloadFile({
      url,
      dest,
      sha1,
      sha256,
      headers: process.env.HF_TOKEN ? { authorization: `Bearer ${process.env.HF_TOKEN}` } : {},
      signal: controller.signal,
      onProgress: (p) => progress.update(p),
    });
    progress.finish();
    if (result.resumedFrom > 0) log(`resumed from ${(result.resumedFrom / MB).toFixed(1)} MB.`);
    if (sha1) log(`SHA-1 verified (${result.sha1}).`);
    if (sha256) log(`SHA-256 verified (${result.sha256}).`);
    if (!sha1 && !sha256)
      log(`could not verify ${file}: no published checksum for it (got SHA-1 ${result.sha1}).`);
    log(`saved ${dest}`);
    return 0;
  } catch (err) {
    if (controller.signal.aborted) {
      log('\nstopped; run the same command again to resume.');
      return 130;
    }
    if (!(err instanceof DownloadError)) throw err;
    log(`\ndownload failed: ${err.message}`);
    if (err.code === 'checksum') log(`checksum mismatch for ${file}. Nothing was saved.`);
    else if (err.retryable) log('run the same command again to resume.');
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      log(err instanceof Error ? (err.stack ?? err.message) : String(err));
      process.exit(1);
    },
  );
}
