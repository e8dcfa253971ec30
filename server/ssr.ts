import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequestHandler, type ServerBuild } from 'react-router';
import type { BuildInfo, SsrHandler } from './http/app-env';

export const BUILD_DIR = path.resolve('build');
export const SERVER_BUILD = path.join(BUILD_DIR, 'server', 'index.js');
export const CLIENT_DIR = path.join(BUILD_DIR, 'client');

/** The production React Router build, loaded once. */
export async function productionSsr(): Promise<{ ssr: SsrHandler; build: BuildInfo }> {
  if (!existsSync(SERVER_BUILD)) throw new Error(`No build at ${SERVER_BUILD}: run npm run build`);
  const serverBuild = (await import(pathToFileURL(SERVER_BUILD).href)) as ServerBuild;
  const handler = createRequestHandler(serverBuild, 'production');
  return {
    ssr: (request, context) => handler(request, context),
    build: { id: serverBuild.assets.version, timestamp: Math.round(statSync(SERVER_BUILD).mtimeMs) },
  };
}

export function packageVersion(): string {
  try {
    return (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}
