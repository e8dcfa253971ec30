// The npm mirror here lacks some platform-specific optional packages (darwin, win32, …), so
// `npm install` leaves them out of package-lock.json and `npm ci` then refuses the lock.
// This adds lock entries for the missing ones with their os/cpu/libc, which npm skips on a
// platform that does not match and installs normally where it does. Run after `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = 'package-lock.json';
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const pkgs = lock.packages;
const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'openharmony',
  'win32',
  'sunos',
  'aix',
  'netbsd',
];
const CPU = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'wasm32', 'mips64el'];

function platformOf(name) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OS.includes(t));
  const cpu = tokens.find((t) => CPU.includes(t));
  const libc = tokens.some((t) => t.startsWith('musl'))
    ? 'musl'
    : tokens.some((t) => t.startsWith('gnu'))
      ? 'glibc'
      : null;
  if (!os && !cpu) return null;
  return {
    ...(cpu ? { cpu: [cpu] } : {}),
    ...(os ? { os: [os] } : {}),
    ...(libc && os === 'linux' ? { libc: [libc] } : {}),
  };
}

let added = 0;
for (const [location, entry] of Object.entries(pkgs)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const target = `node_modules/${dep}`;
    const nested = `${location}/node_modules/${dep}`;
    if (pkgs[target] || pkgs[nested]) continue;
    const platform = platformOf(dep);
    if (!platform) continue;
    pkgs[target] = { version, ...(entry.dev ? { dev: true } : {}), optional: true, ...platform };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock: added ${added} platform entries`);
