// The speech the child transcribes, found as it goes: the Silero detector analyses a block of audio
// at a time, ahead of the transcription, and settled regions join the timeline (sent to the parent
// too). Without detection the timeline is the whole file.
import { settledRegions, SpeechTimeline, type Region } from '../speech/regions';
import { SpeechDetector } from '../speech/vad';

/** Audio analysed by the speech detector per step, ahead of the transcription. */
const VAD_BLOCK_SEC = 60;

export interface SpeechFeed {
  readonly timeline: SpeechTimeline;
  /** Whether all the audio has been analysed (no more speech will be added). */
  readonly allKnown: boolean;
  /** Analyses until `aheadSec` of speech lies beyond `pos`, or the audio ends. */
  fillAhead(pos: number, aheadSec: number): Promise<void>;
  close(): Promise<void>;
}

export async function openSpeechFeed(opts: {
  pcmPath: string;
  fileSec: number;
  detect: boolean;
  onRegions: (regions: Region[]) => void;
}): Promise<SpeechFeed> {
  const timeline = new SpeechTimeline(opts.detect ? [] : [{ start: 0, end: opts.fileSec }]);
  const detector = opts.detect ? await SpeechDetector.open(opts.pcmPath) : null;
  const allKnown = () => !detector || detector.finished;
  const detectMore = async () => {
    if (!detector || detector.finished) return;
    await detector.advance(VAD_BLOCK_SEC);
    const { probs, frameSec } = detector.result;
    const settled = settledRegions(probs, frameSec, opts.fileSec, detector.analysedSec).filter(
      (r) => r.start >= timeline.lastEnd - 1e-9,
    );
    for (const r of settled) timeline.append(r);
    if (settled.length > 0) opts.onRegions(settled);
  };
  return {
    timeline,
    get allKnown() {
      return allKnown();
    },
    async fillAhead(pos, aheadSec) {
      while (!allKnown() && timeline.speechSec - pos < aheadSec) await detectMore();
    },
    async close() {
      await detector?.close();
    },
  };
}
