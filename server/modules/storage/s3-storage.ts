import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { ByteRange, Storage } from './storage';
import { createStoreHealth } from './store-health';

export interface S3Options {
  bucket: string;
  region: string;
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** MinIO and most self-hosted servers want path-style URLs. */
  forcePathStyle?: boolean;
  /** Where temporary copies go (the process's scratch folder, swept when it dies). */
  tmpDir?: () => string;
  /** The longest silence on a connection to the store before the call fails (default 30 s). */
  idleTimeoutMs?: number;
  /** While the store is down, how often it is asked whether it is back (default 2 s). */
  probeEveryMs?: number;
  /** Told when the store goes down or comes back. */
  onHealthChange?: (down: boolean, cause?: unknown) => void;
}

/**
 * A store that accepts connections but never answers (a hung server, a dead link) would hold a
 * request for minutes (the fault matrix saw "start transcription" hang 328 s): every call fails
 * after this much silence, as an outage (TimeoutError: 503 with Retry-After), tried once more.
 */
const IDLE_TIMEOUT_MS = 30_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** The probe of a store that is down: one try, a short wait. */
const PROBE_TIMEOUT_MS = 5_000;

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

/**
 * Media in an S3-compatible bucket (AWS, MinIO, R2 …), so web processes and workers on several
 * machines see the same files. Uploads stream in parts; processing downloads a temporary copy.
 */
export function createS3Storage(opts: S3Options): Storage {
  const common = {
    region: opts.region,
    endpoint: opts.endpoint,
    forcePathStyle: opts.forcePathStyle,
    credentials:
      opts.accessKeyId && opts.secretAccessKey
        ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey }
        : undefined,
  };
  const client = new S3Client({
    requestHandler: {
      connectionTimeout: CONNECT_TIMEOUT_MS,
      // Silence, not length: a large part sent over a slow link keeps its socket busy and goes
      // on (requestTimeout would cut it; without throwOnRequestTimeout it only logs a warning).
      socketTimeout: opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS,
    },
    maxAttempts: 2,
    ...common,
  });
  const Bucket = opts.bucket;
  const prober = new S3Client({
    requestHandler: {
      connectionTimeout: Math.min(CONNECT_TIMEOUT_MS, PROBE_TIMEOUT_MS),
      socketTimeout: Math.min(opts.idleTimeoutMs ?? IDLE_TIMEOUT_MS, PROBE_TIMEOUT_MS),
    },
    maxAttempts: 1,
    ...common,
  });
  const health = createStoreHealth({
    probe: () => prober.send(new HeadBucketCommand({ Bucket })),
    probeEveryMs: opts.probeEveryMs,
    onChange: opts.onHealthChange,
  });
  // Every attempt of every call (multipart uploads too) goes through the store's health: an
  // attempt left unanswered marks it down, and the retry then, like later calls, fails at once.
  client.middlewareStack.add(
    (next) => async (args) => {
      health.assertUp();
      try {
        return await next(args);
      } catch (err) {
        health.failed(err);
        throw err;
      }
    },
    { step: 'finalizeRequest', priority: 'low', name: 'storeHealth' },
  );

  async function body(key: string, range?: ByteRange): Promise<Readable> {
    const out = await client.send(
      new GetObjectCommand({
        Bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return out.Body as Readable;
  }

  return {
    kind: 's3',
    async adoptFile(localPath, key) {
      await this.putFile(localPath, key);
      await unlink(localPath);
    },
    async putFile(localPath, key) {
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: createReadStream(localPath) },
        partSize: 16 * 1024 * 1024,
        queueSize: 2,
      });
      await upload.done();
    },
    async size(key) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? null;
      } catch (err) {
        if (isNotFound(err)) return null;
        throw err;
      }
    },
    read: body,
    async withLocalFile(key, fn) {
      const dir = await mkdtemp(path.join(opts.tmpDir?.() ?? os.tmpdir(), 'clipscribe-s3-'));
      const file = path.join(dir, 'media');
      try {
        await pipeline(await body(key), createWriteStream(file));
        return await fn(file);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async *list(prefix) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? [])
          if (item.Key)
            yield { key: item.Key, size: item.Size ?? 0, modified: item.LastModified ?? new Date(0) };
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    async deletePrefix(prefix) {
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const item of page.Contents ?? []) {
          if (item.Key) await client.send(new DeleteObjectCommand({ Bucket, Key: item.Key }));
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    },
  };
}
