// Compiles the server (TypeScript under server/, common/ and the operator scripts) into plain
// JavaScript under build/node/, so production runs without tsx compiling at start (see
// docs/decisions/0015-lean-by-default.md). Packages stay external (node_modules is resolved at run
// time, native addons included); code splitting keeps `await import('./…')` lazy, so integrations
// that are not configured are never loaded. Source maps keep stack traces pointing at the .ts files.
//
//   node scripts/build-server.mjs            build
//   import { serverBuildIsStale, buildServer } from './build-server.mjs'
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_OUT = path.join(ROOT, 'build', 'node');
/** Output name → source. whisper-child is the engine's child process (one per transcription), llm-child the local language model's. */
export const SERVER_ENTRIES = {
  main: 'server/main.ts',
  worker: 'server/worker.ts',
  admin: 'scripts/admin.ts',
  'model-download': 'scripts/model-download.ts',
  'whisper-child': 'server/modules/engine/whisper/child.ts',
  'llm-child': 'server/modules/language-model/local-child.ts',
};
// app/locales: error answers are written from the interface's locale files.
const SOURCES = ['server', 'common', 'scripts', 'app/locales', 'package-lock.json', 'tsconfig.json'];

/** The newest modification time of a file or of anything below a folder; 0 when it is absent. */
export function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const entry of readdirSync(p)) max = Math.max(max, newestMtime(path.join(p, entry)));
  return max;
}

/** True when an entry is missing or a source file is newer than the build. */
export function serverBuildIsStale() {
  const outputs = Object.keys(SERVER_ENTRIES).map((name) => path.join(SERVER_OUT, `${name}.js`));
  if (!outputs.every((file) => existsSync(file))) return true;
  const builtAt = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  return Math.max(...SOURCES.map((p) => newestMtime(path.join(ROOT, p)))) > builtAt;
}

/**
 * Builds `entries` (default the server's) into `outdir` (default build/node/); returns esbuild's
 * metafile (what imports what). Benches compile their own entries into a folder of their own.
 */
export async function buildServer(outdir = SERVER_OUT, entries = SERVER_ENTRIES) {
  const esbuild = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.entries(entries).map(([out, src]) => ({ in: src, out })),
    outdir,
    metafile: true,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  });
  await esbuild.stop();
  return result.metafile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const t0 = Date.now();
  await buildServer();
  console.log(`server compiled into ${path.relative(ROOT, SERVER_OUT)}/ in ${Date.now() - t0} ms`);
}
