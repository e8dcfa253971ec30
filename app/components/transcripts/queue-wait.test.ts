import { readFileSync } from 'node:fs';
import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { queueWait } from './queue-wait';

// Issue 24 item 7: a job showed "Waiting for a free transcriber… Yours is next" with nothing
// queued or running ahead of it.

const i18n = i18next.createInstance();
beforeAll(async () => {
  const load = (lang: string): Record<string, unknown> =>
    JSON.parse(readFileSync(`app/locales/${lang}.json`, 'utf8')) as Record<string, unknown>;
  await i18n.init({
    lng: 'en',
    resources: { en: { translation: load('en') }, de: { translation: load('de') } },
    interpolation: { escapeValue: false },
  });
});
const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, options ?? {});
const queued = (queue_position: number | null | undefined) =>
  ({ status: 'queued', stage: null, queue_position }) as const;

describe('the wait a queued job shows', () => {
  it('with nothing ahead, says it is starting: no wait for a transcriber, no "yours is next"', () => {
    const wait = queueWait(t, queued(0));
    expect(wait).toEqual({ headline: 'Starting…', detail: null });
    const said = `${wait?.headline} ${wait?.detail ?? ''}`;
    expect(said).not.toMatch(/next|waiting|transcriber/i);
  });

  it('with files ahead, waits for a free transcriber and says how many', () => {
    expect(queueWait(t, queued(1))).toEqual({
      headline: 'Waiting for a free transcriber…',
      detail: '1 file ahead of yours',
    });
    expect(queueWait(t, queued(3))?.detail).toBe('3 files ahead of yours');
  });

  it('with the position unknown, counts nothing', () => {
    expect(queueWait(t, queued(undefined))).toEqual({
      headline: 'Waiting for a free transcriber…',
      detail: null,
    });
  });

  it('is nothing while the engine or a download is what it waits for, or once it runs', () => {
    expect(queueWait(t, { status: 'queued', stage: 'engine', queue_position: 0 })).toBeNull();
    expect(queueWait(t, { status: 'queued', stage: 'downloading', queue_position: 2 })).toBeNull();
    expect(queueWait(t, { status: 'processing', stage: 'preparing', queue_position: null })).toBeNull();
  });

  it('is translated (German)', async () => {
    await i18n.changeLanguage('de');
    expect(queueWait(t, queued(0))?.headline).toBe('Wird gestartet…');
    expect(queueWait(t, queued(2))?.detail).toMatch(/2/);
    await i18n.changeLanguage('en');
  });
});
