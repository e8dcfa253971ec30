export function decodeToPcm(input: string, pcm: string): void;
export function benchSpeech(dir: string, seconds: number): { pcm: string; kind: string };
