import { useTranslation } from 'react-i18next';

/** The transcript's video or audio with the browser's controls, and a word when it cannot play. */
export function MediaPlayer({
  src,
  hasVideo,
  compact = false,
  mediaRef,
  onTimeUpdate,
  unplayable,
}: {
  src: string;
  hasVideo: boolean;
  /** Phones: a short strip instead of a third of the screen (the controls stay usable). */
  compact?: boolean;
  mediaRef: React.RefObject<HTMLMediaElement | null>;
  onTimeUpdate: (e: React.SyntheticEvent<HTMLMediaElement>) => void;
  unplayable: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      {hasVideo ? (
        <video
          ref={mediaRef as React.RefObject<HTMLVideoElement>}
          src={src}
          controls
          playsInline
          preload="metadata"
          onTimeUpdate={onTimeUpdate}
          className={`w-full rounded-xl bg-black ${compact ? 'max-lg:max-h-[12vh]' : 'max-lg:max-h-[30vh]'}`}
        />
      ) : (
        <audio
          ref={mediaRef as React.RefObject<HTMLAudioElement>}
          src={src}
          controls
          preload="metadata"
          onTimeUpdate={onTimeUpdate}
          className="w-full"
        />
      )}
      {unplayable ? (
        <p role="status" className="text-sm text-amber-800">
          {t('editor.unplayable')}
        </p>
      ) : null}
    </>
  );
}
