import type { Readable } from 'node:stream';

export interface ByteRange {
  start: number;
  /** Inclusive, as in HTTP Range. */
  end: number;
}

/**
 * Where media lives. Keys are opaque paths like `media/<user>/<transcript>`. The local-disk
 * adapter is the default; the S3 one serves several machines.
 */
export interface StoredObject {
  key: string;
  size: number;
  modified: Date;
}

export interface Storage {
  readonly kind: 'local' | 's3';
  /** Moves a finished local file (a completed upload) under `key`; the source is consumed. */
  adoptFile(localPath: string, key: string): Promise<void>;
  /**
   * Stores a finished local file under `key` and leaves the source in place (a hard link on the
   * same disk): the caller removes it once the row that names `key` is committed, so a crash in
   * between leaves the upload to try again, never a row without its file.
   */
  putFile(localPath: string, key: string): Promise<void>;
  size(key: string): Promise<number | null>;
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Runs `fn` with a path on local disk (a temporary copy for remote stores). */
  withLocalFile<T>(key: string, fn: (path: string) => Promise<T>): Promise<T>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  /** Every key under `prefix`, with its size and time (the consistency check, sweeps, backups). */
  list(prefix: string): AsyncIterable<StoredObject>;
  /** Throws when the store cannot be used (a missing bucket, refused credentials, no disk). */
  check(): Promise<void>;
}

export function mediaKey(userId: string, transcriptId: string): string {
  return `media/${userId}/${transcriptId}`;
}

export function userPrefix(userId: string): string {
  return `media/${userId}/`;
}
