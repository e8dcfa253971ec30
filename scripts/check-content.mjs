// Checks content/ files against the structure in content/README.md. Exit code 1 on problems.
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';

const LOCALES = ['en', 'de', 'es', 'fr', 'ja', 'ko', 'pt', 'tw', 'vi', 'zh'];
const GROUPS = ['video', 'audio', 'subtitles', 'use-cases'];
const root = new URL('../content/', import.meta.url).pathname;
const problems = [];
const str = (v) => typeof v === 'string' && v.trim().length > 0;
const arrOf = (v, ok) => Array.isArray(v) && v.every(ok);

const toolsDir = join(root, 'tools');
const toolFiles = existsSync(toolsDir) ? readdirSync(toolsDir).filter((f) => f.endsWith('.json')) : [];
const slugs = new Set();
const tools = toolFiles.map((f) => {
  const data = JSON.parse(readFileSync(join(toolsDir, f), 'utf8'));
  slugs.add(data.slug);
  return [f, data];
});
for (const [f, t] of tools) {
  const p = (m) => problems.push(`tools/${f}: ${m}`);
  if (!/^[a-z0-9-]+(\/[a-z0-9-]+)*$/.test(t.slug ?? '')) p('bad slug');
  if (f !== `${t.slug.replaceAll('/', '__')}.json`) p('file name must be the slug (/ as __)');
  if (!GROUPS.includes(t.group)) p('bad group');
  if (!arrOf(t.related, (s) => typeof s === 'string') || t.related.length < 3 || t.related.length > 4)
    p('related: 3-4 slugs');
  for (const s of t.related ?? [])
    if (tools.length >= 12 && !slugs.has(s)) p(`related slug ${s} has no file`);
  const en = t.locales?.en;
  for (const lang of LOCALES) {
    const l = t.locales?.[lang];
    const q = (m) => p(`${lang}: ${m}`);
    if (!l) {
      q('missing');
      continue;
    }
    for (const k of ['nav', 'title', 'description', 'h1', 'cta']) if (!str(l[k])) q(`${k} missing`);
    if (str(l.nav) && [...l.nav].length > 30) q('nav > 30 chars');
    if (str(l.title) && ([...l.title].length < 8 || [...l.title].length > 70))
      q(`title length ${[...l.title].length}`);
    if (str(l.description) && ([...l.description].length < 40 || [...l.description].length > 170))
      q(`description length ${[...l.description].length}`);
    if (!arrOf(l.intro, str) || l.intro.length < 1 || l.intro.length > 3) q('intro: 1-3 paragraphs');
    if (!arrOf(l.steps, (s) => str(s.title) && str(s.text)) || l.steps.length !== 3) q('steps: exactly 3');
    if (
      !arrOf(l.features, (s) => str(s.title) && str(s.text)) ||
      l.features.length < 4 ||
      l.features.length > 6
    )
      q('features: 4-6');
    if (!arrOf(l.faq, (s) => str(s.q) && str(s.a)) || l.faq.length < 4 || l.faq.length > 6) q('faq: 4-6');
    if (en && lang !== 'en') {
      for (const k of ['intro', 'steps', 'features', 'faq'])
        if (l[k]?.length !== en[k]?.length) q(`${k} count differs from en`);
      if (l.h1 === en.h1) q('h1 identical to English');
    }
  }
}

const legalDir = join(root, 'legal');
for (const doc of ['terms', 'privacy-policy', 'privacy-policy-backup']) {
  for (const lang of LOCALES) {
    const file = join(legalDir, doc, `${lang}.json`);
    const p = (m) => problems.push(`legal/${doc}/${lang}.json: ${m}`);
    if (!existsSync(file)) {
      p('missing');
      continue;
    }
    const d = JSON.parse(readFileSync(file, 'utf8'));
    if (!str(d.title)) p('title');
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d.updated ?? '')) p('updated must be YYYY-MM-DD');
    if (!arrOf(d.intro, str)) p('intro');
    if (
      !arrOf(
        d.sections,
        (s) => str(s.heading) && arrOf(s.paragraphs ?? [], str) && arrOf(s.items ?? [], str),
      ) ||
      d.sections.length < 5
    )
      p('sections (>= 5)');
    const en = existsSync(join(legalDir, doc, 'en.json'))
      ? JSON.parse(readFileSync(join(legalDir, doc, 'en.json'), 'utf8'))
      : null;
    if (en && lang !== 'en' && en.sections.length !== d.sections?.length) p('section count differs from en');
  }
}

console.log(`${toolFiles.length} tool pages checked`);
if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('content ok');
