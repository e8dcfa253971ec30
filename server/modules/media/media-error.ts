/** Why a file cannot be transcribed; each code has a translated reason (errors.media.*). */
export type MediaErrorCode = 'empty_file' | 'not_media' | 'no_audio' | 'decode_failed' | 'canceled';

export class MediaError extends Error {
  constructor(
    readonly code: MediaErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'MediaError';
  }
}
