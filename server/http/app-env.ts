import type { Db } from '../db/client';
import type { ServiceDeps } from '../deps';
import type { Env } from '../env';
import type { Logger } from '../logger';
import type { ServerContext } from '../../common/app-context';
import type { AppVariables } from './request-log';

// The types the app and its API handlers share. They live here, not in server/app.ts, so that
// app.ts can import the handlers without every handler importing app.ts back.

export interface BuildInfo {
  id: string;
  timestamp: number;
}

export type SsrHandler = (request: Request, context: ServerContext) => Promise<Response>;

export interface AppDeps {
  env: Env;
  logger: Logger;
  db: Db;
  services: ServiceDeps;
  build: BuildInfo;
  /** React Router's request handler; absent in API-only tests. */
  ssr?: SsrHandler;
  /** build/client in production; Vite serves assets in development. */
  staticDir?: string;
  /** Pages come from Vite's development server (its inline scripts carry no nonce). */
  viteDev?: boolean;
}

/** Hono's environment of every route: request id, logger and the app's dependencies. */
export type AppEnv = { Variables: AppVariables & { deps: AppDeps } };
