import type { Segment } from '../../../common/segments';
import {
  MAX_SPEAKERS,
  assignSpeaker,
  cleanSpeakerName,
  mergeSpeakers,
  newSpeaker,
  type Speaker,
} from '../../../common/speakers';
import type { Transcript } from '../../db/schema';
import type { SegmentEdit } from '../../../common/segment-edits';

export type SpeakerEdit = Extract<
  SegmentEdit,
  { op: 'assign_speaker' | 'add_speaker' | 'update_speaker' | 'merge_speakers' }
>;

export const isSpeakerEdit = (edit: SegmentEdit): edit is SpeakerEdit =>
  edit.op === 'assign_speaker' ||
  edit.op === 'add_speaker' ||
  edit.op === 'update_speaker' ||
  edit.op === 'merge_speakers';

/** Who said what: a RangeError for a speaker that is not in the list or a name left blank. */
export function applySpeakerEdit(
  row: Pick<Transcript, 'segments' | 'speakers'>,
  edit: SpeakerEdit,
  locale: string,
): { segments: Segment[]; speakers: Speaker[] } {
  const speakers = row.speakers;
  const find = (id: string) => {
    const found = speakers.find((s) => s.id === id);
    if (!found) throw new RangeError(`No speaker ${id}`);
    return found;
  };
  switch (edit.op) {
    case 'assign_speaker':
      if (edit.speaker !== null) find(edit.speaker);
      return { segments: assignSpeaker(row.segments, edit.indices, edit.speaker), speakers };
    case 'add_speaker': {
      if (speakers.length >= MAX_SPEAKERS) throw new RangeError(`At most ${MAX_SPEAKERS} speakers`);
      const added = newSpeaker(speakers, locale, edit.name);
      return {
        segments: edit.indices?.length ? assignSpeaker(row.segments, edit.indices, added.id) : row.segments,
        speakers: [...speakers, added],
      };
    }
    case 'update_speaker': {
      const current = find(edit.speaker);
      const name = edit.name === undefined ? current.name : cleanSpeakerName(edit.name);
      if (name === '') throw new RangeError('A speaker name cannot be blank');
      const updated = { ...current, name, color: edit.color?.toLowerCase() ?? current.color };
      return { segments: row.segments, speakers: speakers.map((s) => (s.id === current.id ? updated : s)) };
    }
    case 'merge_speakers':
      return mergeSpeakers(row.segments, speakers, edit.from, edit.into);
  }
}
