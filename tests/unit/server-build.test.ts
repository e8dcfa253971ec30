// The compiled server (scripts/build-server.mjs): what each entry loads at start, and that the
// engine's child runs from the bundle. Decision 0015.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer, type ServerMetafile } from '../../scripts/build-server.mjs';

let dir: string;
let meta: ServerMetafile;

beforeAll(async () => {
  // Inside the project, so the bundle resolves node_modules as build/node/ does.
  mkdirSync('tmp', { recursive: true });
  dir = mkdtempSync(path.resolve('tmp', 'build-'));
  meta = await buildServer(dir);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The packages an entry loads before its first line runs: static imports, followed through chunks. */
function packagesAtStart(entry: string): Set<string> {
  const outputs = meta.outputs;
  const key = Object.keys(outputs).find((k) => k.endsWith(`/${entry}.js`));
  if (!key) throw new Error(`no output for ${entry}`);
  const packages = new Set<string>();
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of outputs[file]?.imports ?? []) {
      if (imp.kind !== 'import-statement') continue;
      if (!imp.external) walk(imp.path);
      else if (!imp.path.startsWith('node:')) {
        const parts = imp.path.split('/');
        packages.add(imp.path.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? imp.path));
      }
    }
  };
  walk(key);
  return packages;
}

const INTEGRATIONS = [
  'stripe',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  'bullmq',
  'ioredis',
  'nodemailer',
  'pg',
  'jose',
  'docx',
  'onnxruntime-node',
  '@napi-rs/whisper',
  'tsx',
  'vite',
];

describe('the compiled server', () => {
  it('loads no integration at start: each is imported when configured or first used', () => {
    const main = packagesAtStart('main');
    expect(main).toContain('hono');
    expect(main).toContain('react-router');
    for (const name of INTEGRATIONS) expect(main, name).not.toContain(name);
  });

  it('runs the engine child from the bundle', () => {
    const r = spawnSync(process.execPath, [path.join(dir, 'whisper-child.js')], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('usage');
    expect(packagesAtStart('whisper-child')).toContain('@napi-rs/whisper');
  });
});
