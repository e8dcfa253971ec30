// A diarizer's turns (who spoke when) made the transcript's speakers: each word goes to whoever
// overlaps it most, segments are cut where the speaker changes, and the clusters are named in
// the owner's language. Used when a transcription identified speakers and when speakers are
// identified later on a finished transcript.
import type { Segment } from '../../../common/segments';
import {
  assignByOverlap,
  speakersFromLabels,
  usedSpeakers,
  type Speaker,
  type SpeakerTurn,
} from '../../../common/speakers';

export function speakersFromTurns(
  segments: readonly Segment[],
  turns: readonly SpeakerTurn[],
  locale: string,
): { segments: Segment[]; speakers: Speaker[] } {
  const named = speakersFromLabels(assignByOverlap(segments, turns), locale);
  return { segments: named.segments, speakers: usedSpeakers(named.speakers, named.segments) };
}
