import { describe, expect, it } from 'vitest';
import { createI18n } from '../../lib/i18n';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { outcomeText } from './delivery-outcome';

const tEn = createI18n('en', en).t;
const tDe = createI18n('de', de).t;

describe('a webhook delivery in words', () => {
  it('names the status the receiver answered', () => {
    const answered = { response_status: 503, error: null };
    expect(tEn('developer.webhooks.testFailed', { reason: outcomeText(tEn, answered) })).toBe(
      'The test event was not accepted: the receiver answered HTTP 503',
    );
    expect(outcomeText(tEn, answered, true)).toBe('HTTP 503');
  });

  it('says why no answer came, in the page language', () => {
    expect(outcomeText(tEn, { response_status: null, error: 'dns' })).toBe('its name was not found (DNS)');
    expect(outcomeText(tEn, { response_status: null, error: 'refused' })).toBe('the connection was refused');
    expect(outcomeText(tDe, { response_status: null, error: 'timeout' })).toBe(
      'der Empfänger hat nicht rechtzeitig geantwortet',
    );
    expect(outcomeText(tDe, { response_status: null, error: 'tls' })).toMatch(/TLS/);
    // A reason this page does not know yet still reads as a sentence.
    expect(outcomeText(tEn, { response_status: null, error: 'something_new' })).toBe('a network error');
  });
});
