import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { FileStore } from '@tus/file-store';
import { Server, type Upload } from '@tus/server';
import type { Actor } from '../workspaces/actor';
import { ErrorCode, UploadCode, httpStatusOf } from '../../../common/error-codes';
import { ApiError } from '../errors';
import { fail } from '../../../common/envelope';
import { outageOf } from '../../outage';
import { outageAnswer } from '../outage-answer';
import type { Logger } from '../../logger';
import { stripControlChars } from '../../../common/text';
import type { Storage } from '../storage/storage';

export const UPLOAD_PATH = '/self-api/v1/uploads';
/** Uploads never turned into a transcript are removed after a day. */
export const ABANDONED_AFTER_MS = 24 * 60 * 60 * 1000;

export interface UploadDeps {
  dir: string;
  logger: Logger;
  /** The caller of a request and the workspace it acts in (as every API call's), or null. */
  actorOf(req: Request): Promise<Actor | null>;
  /**
   * Throws an ApiError when this member may not add to a workspace now: not a member any more,
   * a role that cannot create transcripts (403), or past the plan's limits for `sizeBytes`.
   */
  admit(actor: Actor, workspaceId: string, sizeBytes?: number): Promise<void>;
  /** How often to remove uploads abandoned for a day; never when unset. */
  sweepEveryMs?: number;
  /** Other origins whose pages may upload with the visitor's session (CORS_ORIGINS). */
  corsOrigins?: string[];
  /**
   * The media store when it is shared between machines (S3): a finished upload is copied there
   * before its last PATCH is answered, so "start transcription" reaching another web process
   * finds it. An upload in progress stays on the machine that receives it.
   */
  shared?: Storage | null;
}

/** Where a finished upload and its description wait in the shared store. */
const sharedKey = (id: string) => `uploads/${id}`;
const sharedInfoKey = (id: string) => `uploads/${id}.json`;
interface SharedInfo {
  userId: string;
  workspaceId: string;
  size: number;
  filename: string;
  filetype: string;
}

export interface FinishedUpload {
  id: string;
  path: string;
  size: number;
  filename: string;
  filetype: string | null;
}

type TusError = { status_code: number; body: string };

/** A refusal in the envelope, sent with the HTTP status its code encodes. */
function tusError(code: number, message: string, data: unknown = null): TusError {
  return { status_code: httpStatusOf(code), body: JSON.stringify(fail(code, message, data)) };
}

const UPLOAD_ID = /^[a-f0-9]{32}$/;

/**
 * Every refusal in the JSON envelope with a JSON type: tus writes error bodies as text/plain,
 * and refuses bad headers (a 20-digit Upload-Length …) itself before any hook can shape them.
 */
async function envelopeErrors(res: Response): Promise<Response> {
  if (res.status < 400) return res;
  const text = await res.text();
  let body = text;
  try {
    const parsed = JSON.parse(text) as { code?: unknown };
    if (typeof parsed.code !== 'number') throw new Error('not an envelope');
  } catch {
    const { body: wrapped } = tusError(res.status, 'errors.uploads.rejected', {
      detail: text.trim().slice(0, 200),
    });
    body = wrapped;
  }
  const headers = new Headers(res.headers);
  headers.set('Content-Type', 'application/json; charset=UTF-8');
  const retryAfter = (JSON.parse(body) as { data?: { retry_after?: unknown } }).data?.retry_after;
  // 429 (an API key's minute spent), 503 and 507 say when to come back, like every other answer.
  if ((res.status === 429 || res.status === 503 || res.status === 507) && typeof retryAfter === 'number')
    headers.set('Retry-After', String(retryAfter));
  headers.delete('Content-Length');
  return new Response(body, { status: res.status, headers });
}

/**
 * Resumable uploads (tus 1.0) streamed to disk under `dir`. Every request is tied to the
 * signed-in user and the workspace it uploads to; both are recorded in the upload's metadata and
 * checked on each PATCH, HEAD and DELETE (a member removed meanwhile gets 404 / 403 at once). Limits are checked when the upload is created, and tus itself refuses any
 * byte past the declared Upload-Length, so the size limit also holds while it runs.
 */
export function createUploads(deps: UploadDeps) {
  const store = new FileStore({ directory: deps.dir });
  const owners = new WeakMap<Request, Actor>();
  const shared = deps.shared ?? null;

  /** Beside an upload this machine put in the shared store. */
  const sharedMark = (id: string) => path.join(deps.dir, `${id}.shared`);

  async function share(upload: Upload) {
    if (!shared) return;
    const info: SharedInfo = {
      userId: upload.metadata?.userId ?? '',
      workspaceId: upload.metadata?.workspaceId ?? '',
      size: upload.size ?? 0,
      filename: upload.metadata?.filename ?? '',
      filetype: upload.metadata?.filetype ?? '',
    };
    const infoFile = path.join(deps.dir, `${upload.id}.shared.json`);
    await writeFile(infoFile, JSON.stringify(info));
    try {
      // The bytes first, then the description that says they are complete.
      await shared.putFile(path.join(deps.dir, upload.id), sharedKey(upload.id));
      await shared.putFile(infoFile, sharedInfoKey(upload.id));
      await writeFile(sharedMark(upload.id), '');
    } finally {
      await rm(infoFile, { force: true });
    }
  }

  /** A finished upload another machine received: fetched from the shared store to this disk. */
  async function fromShared(uploadId: string, owner: { userId: string; workspaceId: string }): Promise<FinishedUpload | null> {
    if (!shared) return null;
    let info: SharedInfo;
    try {
      const chunks: Buffer[] = [];
      for await (const c of await shared.read(sharedInfoKey(uploadId))) chunks.push(Buffer.from(c as Buffer));
      info = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SharedInfo;
    } catch (err) {
      if (outageOf(err)) throw err;
      return null;
    }
    if (info.userId !== owner.userId || info.workspaceId !== owner.workspaceId || (await shared.size(sharedKey(uploadId))) !== info.size) return null;
    const dest = path.join(deps.dir, uploadId);
    const part = `${dest}.fetch-${randomBytes(4).toString('hex')}`;
    try {
      await pipeline(await shared.read(sharedKey(uploadId)), createWriteStream(part));
      await rename(part, dest);
    } catch (err) {
      await rm(part, { force: true });
      throw err;
    }
    return {
      id: uploadId,
      path: dest,
      size: info.size,
      filename: stripControlChars(info.filename) || 'upload',
      filetype: stripControlChars(info.filetype) || null,
    };
  }

  const server = new Server({
    path: UPLOAD_PATH,
    datastore: store,
    relativeLocation: true,
    respectForwardedHeaders: false,
    // Only CORS_ORIGINS' pages may upload from another origin (tus's default is any origin, '*').
    allowedOrigins: (origin) => (deps.corsOrigins ?? []).includes(origin),
    allowedCredentials: (deps.corsOrigins ?? []).length > 0,
    disableTerminationForFinishedUploads: false,
    async onIncomingRequest(req, uploadId) {
      const actor = await deps.actorOf(req as unknown as Request).catch((err: unknown) => {
        // An API key's refusals (not allowed, minute spent) in the envelope, like other calls.
        if (err instanceof ApiError) throw tusError(err.code, err.messageKey, err.data);
        throw err;
      });
      if (!actor) throw tusError(ErrorCode.UNAUTHORIZED, 'errors.api.unauthorized');
      owners.set(req as unknown as Request, actor);
      if (req.method !== 'POST' && req.method !== 'OPTIONS') {
        if (!UPLOAD_ID.test(uploadId)) throw tusError(ErrorCode.NOT_FOUND, 'errors.uploads.notFound');
        const upload = await store.getUpload(uploadId).catch(() => null);
        const workspaceId = upload?.metadata?.workspaceId;
        if (!upload || upload.metadata?.userId !== actor.user.id || !workspaceId) {
          throw tusError(ErrorCode.NOT_FOUND, 'errors.uploads.notFound');
        }
        // Still a member who may upload there: checked on every request of the upload.
        try {
          await deps.admit(actor, workspaceId);
        } catch (err) {
          if (err instanceof ApiError) throw tusError(err.code, err.messageKey, err.data);
          throw err;
        }
      }
    },
    async onUploadFinish(_req, upload) {
      await share(upload);
      return {};
    },
    async onUploadCreate(req, upload) {
      const actor = owners.get(req as unknown as Request);
      if (!actor) throw tusError(ErrorCode.UNAUTHORIZED, 'errors.api.unauthorized');
      if (upload.sizeIsDeferred || upload.size === undefined) {
        throw tusError(UploadCode.LENGTH_REQUIRED, 'errors.uploads.lengthRequired');
      }
      if (upload.size === 0) throw tusError(UploadCode.EMPTY_FILE, 'errors.media.empty_file');
      try {
        await deps.admit(actor, actor.workspace.id, upload.size);
      } catch (err) {
        if (err instanceof ApiError) throw tusError(err.code, err.messageKey, err.data);
        throw err;
      }
      // The client names the file: control characters (a NUL would break the insert) go.
      const filename =
        stripControlChars(upload.metadata?.filename ?? upload.metadata?.name ?? '')
          .trim()
          .slice(0, 255) || 'upload';
      return {
        metadata: {
          filename,
          filetype: stripControlChars(upload.metadata?.filetype ?? upload.metadata?.type ?? '').slice(0, 255),
          userId: actor.user.id,
          workspaceId: actor.workspace.id,
        },
      };
    },
    onResponseError(_req, err) {
      if ('status_code' in err && typeof err.body === 'string' && err.body.startsWith('{')) return err;
      if ('status_code' in err) {
        // tus's own refusals (size exceeded, offset mismatch …) in our envelope.
        return tusError(err.status_code, 'errors.uploads.rejected', {
          detail: err.body.trim(),
        });
      }
      // Out of space, or the store away: a status tus clients retry on, after Retry-After.
      const outage = outageAnswer(err);
      if (outage) {
        deps.logger.warn({ err, outage: outage.kind }, 'upload refused for now: asked the client to retry');
        return { status_code: outage.status, body: JSON.stringify(outage.body) };
      }
      deps.logger.error({ err }, 'upload failed');
      return tusError(ErrorCode.INTERNAL, 'errors.api.internal');
    },
  });

  // Abandoned uploads lie on this machine's disk, so this process sweeps them itself rather
  // than through the shared job queue, which may hand the job to another machine.
  const sweeper = deps.sweepEveryMs
    ? setInterval(() => {
        uploads
          .sweepAbandoned()
          .catch((err: Error) => deps.logger.warn({ err: err.message }, 'sweep failed'));
      }, deps.sweepEveryMs)
    : null;
  sweeper?.unref();

  const uploads = {
    /** Stops the sweep timer. */
    close: () => {
      if (sweeper) clearInterval(sweeper);
    },
    handle: async (req: Request) => envelopeErrors(await server.handleWeb(req)),

    /**
     * A finished upload of this member to this workspace, or null (unknown, someone else's,
     * meant for another workspace, or incomplete).
     */
    async finished(
      uploadId: string,
      owner: { userId: string; workspaceId: string },
    ): Promise<FinishedUpload | null> {
      if (!UPLOAD_ID.test(uploadId)) return null;
      const upload: Upload | null = await store.getUpload(uploadId).catch(() => null);
      if (!upload) return fromShared(uploadId, owner);
      if (upload.metadata?.userId !== owner.userId) return null;
      if (upload.metadata?.workspaceId !== owner.workspaceId) return null;
      if (upload.size === undefined || upload.offset !== upload.size) return null;
      if (shared && (await shared.size(sharedInfoKey(upload.id))) === null) {
        // Shared, then started from another machine: this copy is left over.
        if (await stat(sharedMark(upload.id)).catch(() => null)) {
          await this.discard(upload.id);
          return null;
        }
        // Never shared (the store was away when it finished): now.
        await share(upload);
      }
      return {
        id: upload.id,
        path: path.join(deps.dir, upload.id),
        size: upload.size,
        filename: stripControlChars(upload.metadata?.filename ?? '') || 'upload',
        filetype: stripControlChars(upload.metadata?.filetype ?? '') || null,
      };
    },

    /** Forgets an upload once its file has been moved into storage (or is unwanted). */
    async discard(uploadId: string) {
      if (!UPLOAD_ID.test(uploadId)) return;
      await rm(path.join(deps.dir, uploadId), { force: true });
      await rm(path.join(deps.dir, `${uploadId}.json`), { force: true });
      await rm(path.join(deps.dir, `${uploadId}.shared`), { force: true });
      if (shared) {
        await shared.delete(sharedInfoKey(uploadId)).catch(() => undefined);
        await shared.delete(sharedKey(uploadId)).catch(() => undefined);
      }
    },

    async sweepAbandoned(now = Date.now()): Promise<number> {
      let removed = 0;
      if (shared) {
        for await (const item of shared.list('uploads/')) {
          if (now - item.modified.getTime() <= ABANDONED_AFTER_MS) continue;
          await shared.delete(item.key).catch(() => undefined);
          if (!item.key.endsWith('.json')) removed++;
        }
      }
      const names = await readdir(deps.dir).catch(() => [] as string[]);
      for (const name of names) {
        const id = name.replace(/\.json$/, '');
        if (!UPLOAD_ID.test(id) || name.endsWith('.json')) continue;
        const info = await stat(path.join(deps.dir, name)).catch(() => null);
        if (info && now - info.mtimeMs > ABANDONED_AFTER_MS) {
          await this.discard(id);
          removed++;
        }
      }
      return removed;
    },

    /** All uploads of a user (account deletion). */
    async discardAllOf(userId: string) {
      const names = await readdir(deps.dir).catch(() => [] as string[]);
      for (const name of names.filter((n) => n.endsWith('.json'))) {
        const id = name.slice(0, -5);
        const upload = await store.getUpload(id).catch(() => null);
        if (upload?.metadata?.userId === userId) await this.discard(id);
      }
    },
  };
  return uploads;
}

export type Uploads = ReturnType<typeof createUploads>;
