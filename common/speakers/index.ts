// Speakers: who said what, in one folder. The list (speaker-list.ts), changes to who said what
// (assign.ts), labels from engines and caption files turned into speakers (labels.ts), and a
// diarizer's turns put on words (turns.ts). The server side is server/modules/speakers/.
export * from './speaker-list';
export * from './assign';
export * from './labels';
export * from './turns';
