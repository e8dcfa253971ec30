import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import S3rver from 's3rver';
import { testApp } from '../../server/test/harness';
import { makeMedia } from '../../server/test/media';
import { tusUpload } from '../../server/test/tus';
import { sessionActor, signedInUser } from '../../server/test/users';
import { StoreUnusableError } from '../../server/modules/storage/check-at-start';

// Two web processes on two machines (a DATA_DIR each), one PostgreSQL and one S3 bucket: an
// upload received by one is started by the other.
const root = path.resolve(`tmp/shared-uploads-${process.pid}`);
let s3: S3rver;
let s3env: Record<string, string>;
let a: Awaited<ReturnType<typeof testApp>>;
let b: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  s3 = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: path.join(root, 's3'),
    configureBuckets: [{ name: 'media' }],
  });
  const { port } = await s3.run();
  s3env = {
    S3_BUCKET: 'media',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  a = await testApp({}, { ...s3env, DATA_DIR: path.join(root, 'machine-a') });
  b = await testApp({}, { ...s3env, DATA_DIR: path.join(root, 'machine-b') }, { exclusiveDb: false });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await s3?.close();
});

describe('uploads with a shared media store', () => {
  it('an upload finished on one web process is started as a transcription on another', async () => {
    const u = await signedInUser(a.db);
    const file = makeMedia(path.resolve('tmp/test-media'), 'wav', 2);
    const fetcher = (p: string, init: RequestInit) => a.app.request(p, init);
    const { id: uploadId } = await tusUpload(fetcher, u.headers, readFileSync(file), 'talk.wav');

    // Someone else's upload is not found there either.
    const other = await signedInUser(b.db);
    const refused = await b.api('POST', '/transcripts', other.headers, { upload_id: uploadId });
    expect(refused.res.status).toBe(404);

    const created = await b.api('POST', '/transcripts', u.headers, { upload_id: uploadId });
    expect(created.json.code).toBe(200);
    expect(created.json.data.status).toBe('queued');
    expect(created.json.data.media.size).toBe(readFileSync(file).length);
    // Used once: the shared copy is gone, so it cannot be started twice.
    expect(await a.deps.services.transcription.uploads.finished(uploadId!, { userId: u.user.id, workspaceId: (await sessionActor(a.db, u.user)).workspace.id })).toBeNull();
  });

  it('refuses to start when the bucket does not exist, saying so', async () => {
    const err = await testApp(
      {},
      { ...s3env, S3_BUCKET: 'no-such-bucket', DATA_DIR: path.join(root, 'machine-c') },
      { exclusiveDb: false },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreUnusableError);
    expect((err as Error).message).toContain('the bucket does not exist');
  });
});
