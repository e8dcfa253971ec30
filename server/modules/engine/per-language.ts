// The local engine that picks the best model per language (common/engines.ts): Parakeet TDT for its
// 25 European languages, SenseVoice for Chinese, Cantonese, Japanese and Korean, Whisper for the
// rest and for translation. With automatic detection, Whisper's first chunk identifies the language
// (its segments are kept when Whisper stays the engine); a language another family speaks stops
// Whisper there and hands the audio to that family. See docs/decisions/0031-engines-per-language.md.
import { familyForLanguage, type EngineChoice, type EngineFamily } from '../../../common/engines';
import type { Logger } from '../../logger';
import type { SherpaEngine } from './sherpa/engine';
import type { SherpaFamily } from './sherpa/families';
import {
  EngineError,
  type Engine,
  type EngineAudio,
  type EngineProgress,
  type Segment,
  type TranscribeOptions,
  type TranscribeResult,
} from './types';

export interface PerLanguageEngineOptions {
  whisper: Engine;
  /** What the transcript records for Whisper's transcripts ('whisper-base' …). */
  whisperModel: string;
  /** The sherpa-onnx families turned on (ENGINE_FAMILIES), each with its engine. */
  families: Partial<Record<SherpaFamily, SherpaEngine>>;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/** The family a run goes to before any language is detected (null: detect first). */
export function plannedFamily(
  opts: { language: string; engine?: EngineChoice; translate?: boolean },
  enabled: readonly EngineFamily[],
): EngineFamily | null {
  const choice = opts.engine ?? 'auto';
  if (opts.translate) return 'whisper';
  if (choice !== 'auto') return choice;
  if (opts.language === 'auto') return null;
  return familyForLanguage(opts.language, enabled);
}

export function createPerLanguageEngine(o: PerLanguageEngineOptions): Engine {
  const enabled: EngineFamily[] = ['whisper', ...(Object.keys(o.families) as SherpaFamily[])];
  const sherpa = (family: EngineFamily): SherpaEngine | null =>
    family === 'whisper' ? null : (o.families[family] ?? null);

  const withModel = (result: TranscribeResult, model: string): TranscribeResult => ({ ...result, model });

  async function runFamily(
    family: EngineFamily,
    audio: EngineAudio,
    opts: TranscribeOptions,
  ): Promise<TranscribeResult> {
    if (family === 'whisper') return withModel(await o.whisper.transcribe(audio, opts), o.whisperModel);
    const engine = sherpa(family);
    if (!engine)
      throw new EngineError('model_unavailable', `the ${family} engine is turned off on this server`);
    return withModel(await engine.transcribe(audio, opts), engine.model);
  }

  /** Automatic detection: Whisper's first chunk names the language, then the right family runs. */
  async function detectThenRun(audio: EngineAudio, opts: TranscribeOptions): Promise<TranscribeResult> {
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    let decided: EngineFamily | null = null;
    let heard: string | null = null;
    const held: Segment[] = [];
    let heldProgress: [number, EngineProgress | undefined] | null = null;
    const decide = (code: string) => {
      heard = code;
      const family = familyForLanguage(code, enabled);
      const engine = sherpa(family);
      decided = engine?.hasModels() ? family : 'whisper';
      // Detection never waits for a download: Whisper does this one, the family's files come for the next.
      if (engine && decided === 'whisper') engine.start?.();
      if (decided !== 'whisper') {
        o.logger?.info({ language: code, family: decided }, 'language detected: handing over');
        stop.abort();
        return;
      }
      for (const s of held.splice(0)) opts.onSegment?.(s);
      if (heldProgress) opts.onProgress?.(...heldProgress);
    };
    try {
      const result = await o.whisper.transcribe(audio, {
        ...opts,
        signal: stop.signal,
        onLanguage: (code) => {
          if (decided === null) decide(code);
          opts.onLanguage?.(code);
        },
        onSegment: (s) => (decided === 'whisper' ? opts.onSegment?.(s) : decided === null && held.push(s)),
        onProgress: (p, d) => (decided === 'whisper' ? opts.onProgress?.(p, d) : (heldProgress = [p, d])),
      });
      if (decided === null) {
        // No language was reported (no speech): Whisper's result stands.
        for (const s of held) opts.onSegment?.(s);
      }
      return withModel(result, o.whisperModel);
    } catch (err) {
      if (!(decided && decided !== 'whisper' && !opts.signal?.aborted)) throw err;
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
    }
    return runFamily(decided!, audio, { ...opts, language: heard! });
  }

  return {
    name: 'local',
    async ready(opts) {
      const family = plannedFamily({ ...opts, language: opts.language ?? 'auto' }, enabled);
      const engine = family ? sherpa(family) : null;
      const chosen = opts.engine !== undefined && opts.engine !== 'auto';
      if (engine && !chosen && engine.unavailable() && !engine.hasModels()) {
        o.logger?.warn({ family }, 'model family unavailable (its download failed): Whisper instead');
      } else if (engine) {
        try {
          return await engine.ready({ ...opts, failFast: !chosen });
        } catch (err) {
          // Chosen by language, not by the user: Whisper does it when the family cannot.
          if (chosen) throw err;
          o.logger?.warn(
            { family, err: (err as Error).message },
            'model family unavailable: Whisper instead',
          );
        }
      }
      await o.whisper.ready?.(opts);
    },
    start() {
      o.whisper.start?.();
    },
    // Speakers are Whisper's local diarization whichever family transcribes.
    ...(o.whisper.speakersReady ? { speakersReady: o.whisper.speakersReady.bind(o.whisper) } : {}),
    ...(o.whisper.identifySpeakers ? { identifySpeakers: o.whisper.identifySpeakers.bind(o.whisper) } : {}),
    async transcribe(audio, opts) {
      if (enabled.length === 1) return runFamily('whisper', audio, opts);
      const family = plannedFamily(opts, enabled);
      if (family === null) return detectThenRun(audio, opts);
      const engine = sherpa(family);
      // A family picked by language whose model is not here (its download failed): Whisper.
      if (engine && !engine.hasModels() && (opts.engine ?? 'auto') === 'auto')
        return runFamily('whisper', audio, opts);
      return runFamily(family, audio, opts);
    },
    async close() {
      await Promise.all([o.whisper.close?.(), ...Object.values(o.families).map((e) => e.close?.())]);
    },
  };
}
