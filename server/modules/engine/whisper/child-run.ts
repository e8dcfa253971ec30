// One whisper job inside the child: find the speech, give whisper.cpp only the speech regions,
// one chunk after another (planned by chunk-plan.ts), map every word back to the original
// timeline and regroup the words into sentences; then, when asked, identify the speakers.
// Everything the parent needs is reported as it happens (child-protocol.ts).
import { closeSync, fstatSync, openSync } from 'node:fs';
import os from 'node:os';
import { createWordGrouper } from '../../../../common/word-groups';
import type { Segment } from '../../../../common/segments';
import type { SpeakerTurn } from '../../../../common/speakers';
import { checkDiarizationModels, diarize } from '../../speakers/diarization/diarize';
import { checkRecognizerFiles } from '../sherpa/files';
import { loadSherpaDecoder } from '../sherpa/decoder';
import { firstChunkSec, keepUntilSeam, nextChunkSec, planChunk } from './chunk-plan';
import { readRanges, SAMPLE_RATE, send } from './child-io';
import type { ChildJob } from './child-protocol';
import { loadDecoder, type Decoder } from './decoder';
import { checkModelFile } from './model-file';
import { openSpeechFeed } from './speech-feed';

/** whisper.cpp returns nothing for less than 100 ms of audio. */
const MIN_SAMPLES = SAMPLE_RATE / 10;
const PROMPT_CHARS = 200;

/** The model and the speaker models are checked before any work: a job that cannot run fails fast. */
function checkModels(job: ChildJob): boolean {
  if (job.transcribe === false) {
    // Only speakers are identified: no recognizer model is needed.
  } else if (job.recognizer) {
    const files = checkRecognizerFiles(job.recognizer.paths);
    if (!files.ok) {
      send({ t: 'error', code: files.code, message: files.reason });
      return false;
    }
  } else {
    const check = checkModelFile(job.modelPath);
    if (!check.ok) {
      const missing = check.reason.startsWith('cannot open') && /ENOENT/.test(check.reason);
      send({
        t: 'error',
        code: missing ? 'model_missing' : 'model_invalid',
        message: `${job.modelPath}: ${check.reason}`,
      });
      return false;
    }
  }
  if (job.diarize) {
    const models = checkDiarizationModels(job.diarize);
    if (!models.ok) {
      send({ t: 'error', code: models.code, message: `speaker diarization: ${models.reason}` });
      return false;
    }
  }
  return true;
}

export async function runJob(job: ChildJob): Promise<void> {
  if (!checkModels(job)) return;
  let fd: number;
  let totalSamples: number;
  try {
    fd = openSync(job.pcmPath, 'r');
    totalSamples = Math.floor(fstatSync(fd).size / 2);
  } catch (err) {
    send({ t: 'error', code: 'audio_unreadable', message: (err as Error).message });
    return;
  }
  const fileSec = totalSamples / SAMPLE_RATE;
  const limitSec = job.durationSec > 0 ? Math.min(job.durationSec, fileSec) : fileSec;
  let language: string | null = job.language === 'auto' ? null : job.language;
  try {
    if (job.transcribe !== false) {
      const heard = await transcribe(job, fd, fileSec);
      if (heard === undefined) return;
      language = heard ?? language;
    }
    if (job.diarize) {
      send({ t: 'diarizing' });
      let turns: SpeakerTurn[];
      try {
        turns = diarize(job.diarize, readRanges(fd, [[0, Math.floor(limitSec * SAMPLE_RATE)]]));
      } catch (err) {
        send({
          t: 'error',
          code: 'model_invalid',
          message: `speaker diarization: ${(err as Error).message}`,
        });
        return;
      }
      send({ t: 'speakers', turns });
    }
  } finally {
    closeSync(fd);
  }
  send({ t: 'done', language });
}

/**
 * The transcription: segments sent as they are made. Answers the language heard (null when none
 * was), or undefined when the job failed (the error is sent).
 */
async function transcribe(job: ChildJob, fd: number, fileSec: number): Promise<string | null | undefined> {
  const wordMode = job.words !== false;

  if (job.detectSpeech !== false) send({ t: 'stage', stage: 'detecting' });
  const feed = await openSpeechFeed({
    pcmPath: job.pcmPath,
    fileSec,
    detect: job.detectSpeech !== false,
    onRegions: (regions) => send({ t: 'regions', regions }),
  });
  const timeline = feed.timeline;

  let decoder: Decoder | null = null;
  let language: string | null = job.language === 'auto' ? null : job.language;
  const grouper = createWordGrouper();
  let prompt = '';
  const emit = (seg: Segment) => {
    if (!seg.text) return;
    send({
      t: 'segment',
      start: seg.start,
      end: seg.end,
      text: seg.text,
      ...(seg.words?.length ? { words: seg.words } : {}),
    });
    prompt = `${prompt} ${seg.text}`.slice(-PROMPT_CHARS).trim();
  };

  let pos = 0; // speech seconds already transcribed
  let chunkSec = firstChunkSec(job.firstChunkSec, job.maxChunkSec);
  let speed: number | null = null;
  let decodedSec = 0;
  let computeSec = 0;

  for (;;) {
    // Keep the detector a chunk ahead of the transcription.
    await feed.fillAhead(pos, chunkSec);
    const remaining = timeline.speechSec - pos;
    if (remaining * SAMPLE_RATE < MIN_SAMPLES) {
      if (feed.allKnown) break;
      continue;
    }
    const { end, clean } = planChunk({
      pos,
      chunkSec,
      speechSec: timeline.speechSec,
      allKnown: feed.allKnown,
      seams: timeline.seams(),
    });
    const samples = readRanges(fd, timeline.sampleRanges(pos, end, SAMPLE_RATE));
    if (samples.length < MIN_SAMPLES) {
      pos = end;
      continue;
    }

    if (!decoder) {
      send({ t: 'stage', stage: 'transcribing' });
      try {
        const onLoaded = (ms: number) => send({ t: 'loaded', ms });
        // A recognizer's native library exits the process on a file it cannot read: the parent
        // (relay.ts) reports that death between 'transcribing' and 'loaded' as a model that is bad.
        decoder = job.recognizer
          ? loadSherpaDecoder(
              job.recognizer,
              { language: job.language, threads: job.threads ?? os.availableParallelism() },
              onLoaded,
            )
          : loadDecoder(job, wordMode, onLoaded);
      } catch (err) {
        send({ t: 'error', code: 'model_invalid', message: `${job.modelPath}: ${(err as Error).message}` });
        return undefined;
      }
    }
    send({
      t: 'chunk',
      from: timeline.toOriginal(pos, 'start'),
      to: timeline.toOriginal(end, 'end'),
      audioSec: end - pos,
      speed,
    });
    const decoded = await decoder.decode(samples, prompt);

    if (language === null) {
      const detected = decoder.detectLanguage();
      if (detected) {
        language = detected;
        send({ t: 'language', code: detected });
        decoder.keepLanguage(detected);
      }
    }

    // Whisper's times in this chunk, in speech seconds; a cut chunk drops its unfinished tail.
    const lengthSec = end - pos;
    const kept = keepUntilSeam(decoded.pieces, { clean, lengthSec, wordMode });
    for (const s of kept.pieces) {
      const a = Math.max(0, Math.min(lengthSec, s.start / 100));
      const b = Math.max(a, Math.min(lengthSec, s.end / 100));
      const span = timeline.spanToOriginal(pos + a, pos + b);
      if (wordMode) {
        // Whisper's word text keeps its leading space, which is how words are joined again.
        if (!s.text.trim()) continue;
        for (const seg of grouper.push({ start: span.start, end: span.end, text: s.text })) emit(seg);
      } else {
        const t = s.text.trim();
        if (t) emit({ start: span.start, end: span.end, text: t });
      }
    }

    // The speed over every chunk so far: one quick chunk does not make the next one huge.
    decodedSec += lengthSec;
    computeSec += decoded.computeSec;
    speed = decodedSec / computeSec;
    chunkSec = nextChunkSec(speed, job.targetChunkComputeSec, job.maxChunkSec, lengthSec);
    pos += kept.advanceSec;
    send({
      t: 'progress',
      reached: timeline.toOriginal(pos, 'end'),
      finished: feed.allKnown && pos >= timeline.speechSec,
      speed,
    });
  }
  for (const seg of grouper.flush()) emit(seg);
  await feed.close();
  return language;
}
