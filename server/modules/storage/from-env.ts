import type { Env } from '../../env';
import type { Logger } from '../../logger';
import { createLocalStorage } from './local-storage';
import type { Storage } from './storage';

/** The media store the environment names: S3_BUCKET, else local disk under DATA_DIR. */
export async function createStorageFromEnv(
  env: Env,
  tmpDir: () => string,
  logger?: Pick<Logger, 'warn' | 'info'>,
): Promise<Storage> {
  if (!env.S3_BUCKET) return createLocalStorage(env.DATA_DIR);
  const { createS3Storage } = await import('./s3-storage');
  return createS3Storage({
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    tmpDir,
    onHealthChange: (down, cause) =>
      down
        ? logger?.warn(
            { err: cause },
            'the object store does not answer: its calls fail at once (503) until it does',
          )
        : logger?.info('the object store answers again'),
  });
}
