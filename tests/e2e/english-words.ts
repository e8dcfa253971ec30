// Frequent English words of interface text, to find strings left in English on other languages'
// pages. Words that are also ordinary words, abbreviations or settled loanwords in one of the
// other nine interface languages are left out: 'plan', 'minutes', 'page', 'date', 'contact',
// 'support', 'format', 'code', 'link', 'status', 'export', 'dashboard', 'name', 'start', 'no',
// 'he', 'has', 'may', 'ago', 'error', 'transcribe' (es), 'use', 'for', 'out', 'remove' (pt), 'on',
// 'but', 'file', 'part', 'lecture', 'usage', 'Go' (fr), 'fast', 'still', 'her', 'see', 'die',
// 'will', 'also', 'was' (de), 'to', 'an' (vi), 'US' (US$), 'back' (back-end), single letters.
export const ENGLISH_WORDS = new Set(
  `
the and your you with this that these those are have been from not can cannot all any more new now
get our their they them there here what when where which who why how would should could into about
after before than then only just each every other some such its were being does did done yet off
over under again please sign signed log upload uploads uploaded uploading transcript transcripts
transcribed transcribing files free price prices pricing month monthly year yearly hour hours
language languages search share shared sharing download downloads delete deleted removed save saved
saving cancel edit edited settings account password address folder folders profile continue next
previous close open show hide view views copy copied loading failed success ready queued processing
waiting speaker speakers word words time times first last third lines create created rename renamed
move moved select selected billing invoice invoices subscription payment payments payout payouts
earnings clicks signups customers customer apply join terms privacy policy help features feature
tools tool accurate faster easy unlimited starter basic advanced enterprise day days week weeks left
remaining used yes by at if is it be we my she his up using make try learn read write keep find
found need want know let work works watch listen play replace replaced undo match matches enter
choose update updated manage verify verification verified reset forgot remember welcome thanks thank
sorry never always already must might without within between while because most many much very too
well good great best better own same different full whole secure safe owner assets settlement
referral referrals pending available paid requested amount click here today yesterday seconds
`
    .trim()
    .split(/\s+/),
);

/** Names that stay English in every language: a product, a legal framework. */
const PROPER_NAMES = /\b(?:Microsoft )?Word\b|\b(?:EU[-–]U\.?S\.? )?Data Privacy Framework\b/g;

/** Loanwords a language has made its own (Duden lists 'Upload' and 'Download'). */
const LOANWORDS: Record<string, Set<string>> = {
  de: new Set(['upload', 'uploads', 'download', 'downloads']),
  pt: new Set(['upload', 'uploads', 'download', 'downloads']),
};

/** The English words in a text: names, e-mail addresses and URLs are not words. */
export function englishWordsIn(text: string, lang: string): string[] {
  const cleaned = text
    .replace(PROPER_NAMES, ' ')
    .replace(/\S+@\S+|https?:\/\/\S+|\b[\w-]+\.(?:app|com|test)\b/g, ' ');
  return (cleaned.match(/\p{L}[\p{L}'’]*/gu) ?? []).filter((w) => {
    const word = w.toLowerCase();
    return ENGLISH_WORDS.has(word) && !LOANWORDS[lang]?.has(word);
  });
}
