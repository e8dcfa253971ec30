import { transcripts, type Transcript } from '../../db/schema';

/** Everything but the segments: what lists show. */
export const summaryColumns = {
  id: transcripts.id,
  workspaceId: transcripts.workspaceId,
  name: transcripts.name,
  folderId: transcripts.folderId,
  source: transcripts.source,
  sourceUrl: transcripts.sourceUrl,
  status: transcripts.status,
  progress: transcripts.progress,
  stage: transcripts.stage,
  remainingSec: transcripts.remainingSec,
  detectSpeech: transcripts.detectSpeech,
  detectSpeakers: transcripts.detectSpeakers,
  speakerCount: transcripts.speakerCount,
  speakerNote: transcripts.speakerNote,
  language: transcripts.language,
  detectedLanguage: transcripts.detectedLanguage,
  translate: transcripts.translate,
  engineChoice: transcripts.engineChoice,
  engine: transcripts.engine,
  mediaName: transcripts.mediaName,
  mediaType: transcripts.mediaType,
  mediaSize: transcripts.mediaSize,
  mediaKey: transcripts.mediaKey,
  hasVideo: transcripts.hasVideo,
  durationSec: transcripts.durationSec,
  errorCode: transcripts.errorCode,
  createdAt: transcripts.createdAt,
  updatedAt: transcripts.updatedAt,
  completedAt: transcripts.completedAt,
};

/** A transcript row without its segments, speakers and speech regions. */
export type TranscriptSummary = Pick<Transcript, keyof typeof summaryColumns>;
