import { apiUrl } from './api';
import { useEffect, useState } from 'react';
import { useRevalidator } from 'react-router';
import type { Segment } from '../../common/segments';
import { ACTIVE_STATUSES, type TranscriptJson } from '../../common/transcript-types';

/**
 * Follows a transcript while it is queued or processing: the server's event stream sends a
 * snapshot, then progress and each new segment, then the final transcript. A stream opened
 * after the end (a reconnect that came too late) says only that it ended, without the text: the
 * page then loads the finished transcript again.
 */
export function useTranscriptLive(initial: TranscriptJson): TranscriptJson {
  const [transcript, setTranscript] = useState(initial);
  // New loader data (a revalidation after retry or cancel) replaces the live state.
  const [base, setBase] = useState(initial);
  if (base !== initial) {
    setBase(initial);
    setTranscript(initial);
  }

  const active = ACTIVE_STATUSES.includes(transcript.status);
  const { revalidate } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const source = new EventSource(apiUrl(`/self-api/v1/transcripts/${transcript.id}/events`), {
      withCredentials: true,
    });
    source.addEventListener('snapshot', (e) => {
      const next = JSON.parse((e as MessageEvent<string>).data) as TranscriptJson;
      const ended = !ACTIVE_STATUSES.includes(next.status);
      if (ended) source.close();
      // The end without its segments: the loader brings the whole transcript (new loader data
      // replaces the live state above).
      if (ended && next.segments === undefined) void revalidate();
      else setTranscript(next);
    });
    source.addEventListener('status', (e) => {
      const event = JSON.parse((e as MessageEvent<string>).data) as {
        status: TranscriptJson['status'];
        progress: number;
        stage?: TranscriptJson['stage'];
        remainingSec?: number | null;
        queuePosition?: number | null;
      };
      setTranscript((t) => {
        const stage = event.stage === undefined ? t.stage : event.stage;
        // The bar only moves forward within a stage; a new stage (the model download done, the
        // job started) starts its own count.
        const progress =
          stage === t.stage && event.status === t.status
            ? Math.max(t.progress, event.progress)
            : event.progress;
        return {
          ...t,
          status: event.status,
          progress,
          stage,
          remaining_sec: event.remainingSec === undefined ? t.remaining_sec : event.remainingSec,
          queue_position:
            event.queuePosition !== undefined
              ? event.queuePosition
              : event.status === 'queued'
                ? t.queue_position
                : null,
        };
      });
    });
    source.addEventListener('segment', (e) => {
      const { index, segment } = JSON.parse((e as MessageEvent<string>).data) as {
        index: number;
        segment: Segment;
      };
      setTranscript((t) => {
        const segments = [...(t.segments ?? [])];
        segments[index] = segment;
        return { ...t, segments };
      });
    });
    return () => source.close();
  }, [active, transcript.id, revalidate]);

  return transcript;
}
