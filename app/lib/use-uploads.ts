import { fieldKeysOf, messageKeyOf } from '../../common/envelope';
import { useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, apiUrl } from './api';
import { useLocale } from './use-locale';
import { messageValues } from '../../common/message-values';
import type { Locale } from '../../common/locales';
import { isPlanLimit } from '../../common/error-codes';
import { ApiClientError } from './api-client';
import { isCaptionFile, type TranscriptJson } from '../../common/transcript-types';
import { mayBeMedia, SNIFF_BYTES } from '../../common/media-sniff';
import type { LinkRunInput, RunOptionsInput, UploadRunInput } from '../../common/run-options';

export type UploadPhase = 'uploading' | 'creating' | 'done' | 'failed' | 'canceled';

export interface UploadItem {
  key: string;
  /** A file sent from here, or a link the server downloads (then `name` is the link). */
  kind?: 'file' | 'link';
  name: string;
  size: number;
  phase: UploadPhase;
  /** 0–100 of the bytes sent. */
  percent: number;
  error: string | null;
  /** The refusal is a plan limit: the row offers the way to /pricing. */
  planLimit?: boolean;
  transcript: TranscriptJson | null;
}

export interface UploadOptions {
  /** How each file or link is transcribed, as the API takes it (common/run-options.ts). */
  run: RunOptionsInput;
  /** Bytes; checked here first so nobody waits for an upload the server will refuse. */
  maxBytes: number | null;
}

interface TusUpload {
  start(): void;
  abort(shouldTerminate?: boolean): Promise<void>;
  findPreviousUploads(): Promise<unknown[]>;
  resumeFromPreviousUpload(previous: unknown): void;
  url: string | null;
}

/** Translated message of a failed tus request (our envelope) or a network failure. */
interface Failure {
  message: string;
  planLimit: boolean;
}
type T = (k: string, o?: Record<string, unknown>) => string;

function tusFailure(err: unknown, t: T, lang: Locale): Failure {
  const response = (err as { originalResponse?: { getBody(): string } | null }).originalResponse;
  try {
    const body = response
      ? (JSON.parse(response.getBody()) as {
          code?: number;
          message?: string;
          message_key?: string;
          data?: unknown;
        })
      : null;
    const key = body ? messageKeyOf(body) : undefined;
    if (body && key) {
      return {
        message: t(key, messageValues(lang, body.data)),
        planLimit: isPlanLimit(body.code ?? 0),
      };
    }
  } catch {
    // not our envelope
  }
  return { message: t('errors.requestError'), planLimit: false };
}

/** True unless the file's first bytes show it cannot be video or audio (unreadable: let it go). */
async function sniff(file: File): Promise<boolean> {
  try {
    return mayBeMedia(new Uint8Array(await file.slice(0, SNIFF_BYTES).arrayBuffer()));
  } catch {
    return true;
  }
}

function apiFailure(err: unknown, t: T): Failure {
  return err instanceof ApiClientError
    ? { message: err.message, planLimit: isPlanLimit(err.code) }
    : { message: t('errors.requestError'), planLimit: false };
}

/**
 * Uploads files one by one with tus (resumable, in chunks, retried), then turns each into a
 * transcript; caption files are imported directly. Each file has its own progress and cancel.
 */
export function useUploads(onCreated: (t: TranscriptJson) => void) {
  const { t } = useTranslation();
  const lang = useLocale();
  const [items, setItems] = useState<UploadItem[]>([]);
  const running = useRef(new Map<string, { upload?: TusUpload; abort: AbortController }>());

  const update = useCallback((key: string, patch: Partial<UploadItem>) => {
    setItems((list) => list.map((i) => (i.key === key ? { ...i, ...patch } : i)));
  }, []);

  const create = useCallback(
    async (key: string, uploadId: string, options: UploadOptions, signal: AbortSignal) => {
      update(key, { phase: 'creating', percent: 100 });
      const body: UploadRunInput = { upload_id: uploadId, ...options.run };
      const transcript = await api.post<TranscriptJson>('/self-api/v1/transcripts', body, {
        handleErrors: true,
        signal,
      });
      update(key, { phase: 'done', transcript });
      onCreated(transcript);
    },
    [onCreated, update],
  );

  const importCaptions = useCallback(
    async (key: string, file: File, options: UploadOptions, signal: AbortSignal) => {
      const form = new FormData();
      form.set('file', file);
      const { language, folder_id } = options.run;
      if (language && language !== 'auto') form.set('language', language);
      if (folder_id) form.set('folder_id', folder_id);
      update(key, { phase: 'creating', percent: 100 });
      const transcript = await api.request<TranscriptJson>('POST', '/self-api/v1/transcripts/import', {
        form,
        handleErrors: true,
        signal,
      });
      update(key, { phase: 'done', transcript });
      onCreated(transcript);
    },
    [onCreated, update],
  );

  const add = useCallback(
    (files: File[], options: UploadOptions) => {
      for (const file of files) {
        const key = `${file.name}-${file.size}-${Date.now()}-${Math.random().toString(36).slice(2)}`;
        const item: UploadItem = {
          key,
          name: file.name,
          size: file.size,
          phase: 'uploading',
          percent: 0,
          error: null,
          transcript: null,
        };
        if (options.maxBytes !== null && file.size > options.maxBytes && !isCaptionFile(file.name)) {
          item.phase = 'failed';
          item.error = t(
            'errors.transcripts.fileTooLarge',
            messageValues(lang, { limit_mb: options.maxBytes / 1024 / 1024 }),
          );
          item.planLimit = true;
          setItems((list) => [...list, item]);
          continue;
        }
        if (file.size === 0) {
          item.phase = 'failed';
          item.error = t('errors.media.empty_file');
          setItems((list) => [...list, item]);
          continue;
        }
        setItems((list) => [...list, item]);
        const abort = new AbortController();
        const entry: { upload?: TusUpload; abort: AbortController } = { abort };
        running.current.set(key, entry);
        const fail = ({ message, planLimit }: Failure) => {
          running.current.delete(key);
          if (!abort.signal.aborted) update(key, { phase: 'failed', error: message, planLimit });
        };
        if (isCaptionFile(file.name)) {
          importCaptions(key, file, options, abort.signal)
            .catch((err: unknown) => fail(apiFailure(err, t)))
            .finally(() => running.current.delete(key));
          continue;
        }
        // A file that cannot be media (a PDF, a photo, text) is refused before a byte is sent.
        void sniff(file).then(async (media) => {
          if (!media) return fail({ message: t('errors.media.not_media'), planLimit: false });
          if (abort.signal.aborted) return;
          const { Upload } = await import('tus-js-client');
          const upload: TusUpload = new Upload(file, {
            endpoint: apiUrl('/self-api/v1/uploads'),
            // The session cookie goes along when the API is on another origin (API_BASE_URL).
            onBeforeRequest(req: { getUnderlyingObject(): unknown }) {
              const xhr = req.getUnderlyingObject();
              if (xhr instanceof XMLHttpRequest) xhr.withCredentials = true;
            },
            chunkSize: 16 * 1024 * 1024,
            retryDelays: [0, 1000, 3000, 5000, 10000],
            removeFingerprintOnSuccess: true,
            metadata: { filename: file.name, filetype: file.type },
            onProgress(sent: number, total: number) {
              update(key, { percent: total ? Math.floor((sent / total) * 100) : 0 });
            },
            onShouldRetry(err: { originalResponse?: { getStatus(): number } | null }) {
              const status = err.originalResponse?.getStatus() ?? 0;
              // Refusals (limits, auth, not found) will not change on retry.
              return status === 0 || status === 409 || status === 423 || status >= 500;
            },
            onError(err: unknown) {
              fail(tusFailure(err, t, lang));
            },
            onSuccess() {
              const id = upload.url?.split('/').pop() ?? '';
              create(key, id, options, abort.signal)
                .catch((err: unknown) => fail(apiFailure(err, t)))
                .finally(() => running.current.delete(key));
            },
          }) as unknown as TusUpload;
          entry.upload = upload;
          if (abort.signal.aborted) return;
          // A file sent before (same name, size, type) resumes where it stopped.
          const previous = await upload.findPreviousUploads().catch(() => []);
          if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
          upload.start();
        });
      }
    },
    [create, importCaptions, lang, t, update],
  );

  const cancel = useCallback(
    (key: string) => {
      const entry = running.current.get(key);
      running.current.delete(key);
      entry?.abort.abort();
      // Terminating removes the partial file from the server too.
      void entry?.upload?.abort(true).catch(() => undefined);
      update(key, { phase: 'canceled' });
    },
    [update],
  );

  /**
   * Asks the server to import a link; the row appears once it is accepted (the download then
   * shows as the transcript's stage). Resolves to the refusal, translated, or null.
   */
  const addLink = useCallback(
    async (url: string, options: UploadOptions): Promise<string | null> => {
      try {
        const body: LinkRunInput = { url, ...options.run };
        const transcript = await api.post<TranscriptJson>('/self-api/v1/transcripts/from-link', body, {
          handleErrors: true,
        });
        const key = `link-${transcript.id}`;
        setItems((list) => [
          ...list,
          { key, kind: 'link', name: url, size: 0, phase: 'done', percent: 100, error: null, transcript },
        ]);
        onCreated(transcript);
        return null;
      } catch (err) {
        const field = fieldKeysOf((err as ApiClientError).data)?.url;
        return field ? t(field) : apiFailure(err, t).message;
      }
    },
    [onCreated, t],
  );

  const dismiss = useCallback((key: string) => {
    setItems((list) => list.filter((i) => i.key !== key));
  }, []);

  return { items, add, addLink, cancel, dismiss };
}
