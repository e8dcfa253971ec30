// `npm run model:download -- <name> [--force]`: fetches a whisper.cpp model (ggml-<name>.bin) into
// <DATA_DIR or ./data>/models/, streaming to a temporary file with a progress bar on stderr, and
// moves it into place only once its SHA-1 matches the one whisper.cpp publishes.
//
// Environment: DATA_DIR; WHISPER_MODEL_NAME (the default name, else base);
// WHISPER_MODEL_BASE_URL (a mirror; default Hugging Face); WHISPER_MODEL_SHA1 (the expected SHA-1,
// overriding the table: for mirrors serving other files, and tests); HF_TOKEN (sent as a bearer token).
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { pathToFileURL } from 'node:url';

const DEFAULT_BASE_URL = 'https://huggingface.co/ggerganov/whisper.cpp/resolve/main';

/**
 * The official files and their SHA-1s, from whisper.cpp's models/README.md. Names mapped to null
 * are real files (listed by models/download-ggml-model.sh) without a published checksum.
 */
export const MODELS = {
  tiny: 'bd577a113a864445d4c299885e0cb97d4ba92b5f',
  'tiny.en': 'c78c86eb1a8faa21b369bcd33207cc90d64ae9df',
  base: '465707469ff3a37a2b9b8d8f89f2f99de7299dac',
  'base.en': '137c40403d78fd54d454da0f9bd998f78703390c',
  small: '55356645c2b361a969dfd0ef2c5a50d530afd8d5',
  'small.en': 'db8a495a91d927739e50b3fc1cc4c6b8f6c2d022',
  medium: 'fd9727b6e1217c2f614f9b698455c4ffd82463b4',
  'medium.en': '8c30f0e44ce9560643ebd10bbe50cd20eafd3723',
  'large-v1': 'b1caaf735c4cc1429223d5a74f0f4d0b9b59a299',
  'large-v2': '0f4c8e34f21cf1a914c59d8b3ce882345ad349d6',
  'large-v3': 'ad82bf6a9043ceed055076d0fd39f5f186ff8062',
  'large-v3-turbo': '4af2b29d7ec73d781377bfd1758ca957a807e941',
  'large-v2-q5_0': '00e39f2196344e901b3a2bd5814807a769bd1630',
  'large-v3-q5_0': 'e6e2ed78495d403bef4b7cff42ef4aaadcfea8de',
  'large-v3-turbo-q5_0': 'e050f7970618a659205450ad97eb95a18d69c9ee',
  'tiny-q5_1': null,
  'tiny.en-q5_1': null,
  'tiny-q8_0': null,
  'base-q5_1': null,
  'base.en-q5_1': null,
  'base-q8_0': null,
  'small-q5_1': null,
  'small.en-q5_1': null,
  'small-q8_0': null,
  'medium-q5_0': null,
  'medium.en-q5_0': null,
  'medium-q8_0': null,
  'large-v2-q8_0': null,
  'large-v3-turbo-q8_0': null,
};

const MB = 1024 * 1024;
const log = (line) => process.stderr.write(`${line}\n`);

function usage() {
  log('usage: npm run model:download -- <name> [--force]');
  log(`models: ${Object.keys(MODELS).join(', ')}`);
}

/** A progress line on stderr: redrawn in place on a terminal, one line every 5 s otherwise. */
function progressReporter(label, total) {
  const tty = process.stderr.isTTY;
  const started = Date.now();
  let lastDraw = 0;
  let done = 0;
  const draw = (final) => {
    const now = Date.now();
    if (!final && now - lastDraw < (tty ? 200 : 5000)) return;
    lastDraw = now;
    const secs = Math.max(0.001, (now - started) / 1000);
    const speed = `${(done / MB / secs).toFixed(1)} MB/s`;
    let line;
    if (total > 0) {
      const ratio = Math.min(1, done / total);
      const width = 30;
      const fill = Math.round(ratio * width);
      line =
        `${label} [${'#'.repeat(fill)}${'-'.repeat(width - fill)}] ${(ratio * 100).toFixed(1).padStart(5)}% ` +
        `${(done / MB).toFixed(1)}/${(total / MB).toFixed(1)} MB ${speed}`;
    } else {
      line = `${label} ${(done / MB).toFixed(1)} MB ${speed}`;
    }
    if (tty) process.stderr.write(`\r${line}\x1b[K${final ? '\n' : ''}`);
    else log(line);
  };
  return {
    add(n) {
      done += n;
      draw(false);
    },
    finish() {
      draw(true);
    },
    get bytes() {
      return done;
    },
  };
}

export async function main(argv) {
  const force = argv.includes('--force');
  const names = argv.filter((a) => a !== '--force');
  if (names.length > 1 || names.some((a) => a.startsWith('-'))) {
    usage();
    return 2;
  }
  const name = names[0] ?? (process.env.WHISPER_MODEL_NAME || 'base');
  if (!Object.hasOwn(MODELS, name)) {
    log(`unknown model "${name}".`);
    usage();
    return 2;
  }

  const dataDir = path.resolve(process.env.DATA_DIR || 'data');
  const dir = path.join(dataDir, 'models');
  const file = `ggml-${name}.bin`;
  const dest = path.join(dir, file);
  if (existsSync(dest) && !force) {
    log(`${dest} already exists (use --force to download it again).`);
    return 0;
  }
  mkdirSync(dir, { recursive: true });

  const override = process.env.WHISPER_MODEL_SHA1?.trim().toLowerCase();
  const expected = override || MODELS[name];
  const base = (process.env.WHISPER_MODEL_BASE_URL || DEFAULT_BASE_URL).replace(/\/+$/, '');
  const url = `${base}/${file}`;
  const tmp = path.join(dir, `.${file}.${process.pid}.part`);
  const removeTmp = () => rmSync(tmp, { force: true });
  // Ctrl-C must not leave half a model behind.
  const onSignal = (sig) => {
    removeTmp();
    process.stderr.write('\n');
    process.kill(process.pid, sig);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    log(`downloading ${url}`);
    const headers = process.env.HF_TOKEN ? { authorization: `Bearer ${process.env.HF_TOKEN}` } : {};
    let res;
    try {
      res = await fetch(url, { headers, redirect: 'follow' });
    } catch (err) {
      log(`download failed: ${err.cause?.message ?? err.message}`);
      return 1;
    }
    if (!res.ok || !res.body) {
      log(`download failed: HTTP ${res.status} ${res.statusText}`);
      return 1;
    }
    const total = Number(res.headers.get('content-length')) || 0;
    const progress = progressReporter(file, total);
    const hash = createHash('sha1');
    const meter = new Transform({
      transform(chunk, _enc, cb) {
        hash.update(chunk);
        progress.add(chunk.length);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(Readable.fromWeb(res.body), meter, createWriteStream(tmp));
    } catch (err) {
      removeTmp();
      log(`\ndownload failed: ${err.message}`);
      return 1;
    }
    progress.finish();
    if (total > 0 && progress.bytes !== total) {
      removeTmp();
      log(`download incomplete: got ${progress.bytes} of ${total} bytes`);
      return 1;
    }

    const sha1 = hash.digest('hex');
    if (expected) {
      if (sha1 !== expected) {
        removeTmp();
        log(`checksum mismatch for ${file}: expected SHA-1 ${expected}, got ${sha1}. Nothing was saved.`);
        return 1;
      }
      log(`SHA-1 verified (${sha1}).`);
    } else {
      log(`could not verify ${file}: no published SHA-1 for it (got ${sha1}).`);
    }
    renameSync(tmp, dest);
    log(`saved ${dest}`);
    return 0;
  } catch (err) {
    removeTmp();
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      log(err.stack ?? String(err));
      process.exit(1);
    },
  );
}
