import { useTranslation } from 'react-i18next';
import type { LegalDoc, LegalDocJson } from '../../../common/legal-content';
import { LOCALE_TAGS, localeParam } from '../../../common/locales';
import type { ServerContext } from '../../../common/app-context';
import { notFound } from '../../lib/not-found';
import { useLocale } from '../../lib/use-locale';

/** Loads a legal text in the page's language (content/legal). */
export async function legalLoader(
  doc: LegalDoc,
  { params, request, context }: { params: { lang?: string }; request: Request; context: ServerContext },
) {
  const text = await context.getLegal(doc, localeParam(params.lang));
  if (!text) throw notFound('unknown', new URL(request.url).pathname);
  return { text };
}

export function LegalDocument({ text, notice }: { text: LegalDocJson; notice?: React.ReactNode }) {
  const { t } = useTranslation();
  const lang = useLocale();
  const updated = new Intl.DateTimeFormat(LOCALE_TAGS[lang], { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${text.updated}T00:00:00Z`),
  );
  return (
    <article className="mx-auto w-full max-w-3xl px-4 py-10 sm:px-6 sm:py-14">
      {notice}
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{text.title}</h1>
      <p className="mt-2 text-sm text-slate-500">{t('pages.lastUpdated', { date: updated })}</p>
      <div className="mt-6 space-y-4 leading-7 text-slate-700">
        {text.intro.map((p) => (
          <p key={p}>{p}</p>
        ))}
      </div>
      {text.sections.map((s, i) => (
        <section key={s.heading} className="mt-10" aria-labelledby={`s${i}`}>
          <h2 id={`s${i}`} className="text-xl font-semibold text-slate-900">
            {s.heading}
          </h2>
          <div className="mt-3 space-y-3 leading-7 text-slate-700">
            {s.paragraphs?.map((p) => (
              <p key={p}>{p}</p>
            ))}
            {s.items?.length ? (
              <ul className="list-disc space-y-1.5 pl-6">
                {s.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
          </div>
        </section>
      ))}
    </article>
  );
}
