import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ToolPageJson } from '../../../common/tool-content';
import { useLocalePath } from '../../lib/use-locale';
import { FaqBlock, FeaturesBlock, HeroBlock, MoreToolsBlock, StepsBlock } from './blocks';
import type { ServerContext } from '../../../common/app-context';
import { localeParam } from '../../../common/locales';
import { notFound } from '../../lib/not-found';
import { BLOCK_KINDS, BLOCK_SLUGS, type BlockKind } from '../../../common/tool-blocks';

const BLOCKS: Record<BlockKind, (p: { page: ToolPageJson }) => React.ReactNode> = {
  hero: HeroBlock,
  steps: StepsBlock,
  features: FeaturesBlock,
  faq: FaqBlock,
  moreTools: MoreToolsBlock,
};

/** The sample page every gallery entry renders its block with. */
export const SAMPLE_TOOL = 'video-to-text';

/** /tools/components/<slug>: one landing-page block alone, with a real page's content (internal, noindex). */
export function BlockGallery({ kind, page }: { kind: BlockKind; page: ToolPageJson }) {
  const { t } = useTranslation();
  const lp = useLocalePath();
  const Block = BLOCKS[kind];
  return (
    <>
      <div className="mx-auto max-w-6xl px-4 pt-8 sm:px-6">
        <p className="text-xs font-semibold uppercase tracking-wide text-brand-700">
          {t('pages.components.title')}
        </p>
        <h1 className="mt-1 text-2xl font-bold text-slate-900">
          {t('pages.components.heading', { kind: t(`pages.components.kinds.${kind}`) })}
        </h1>
        <p className="mt-2 text-sm text-slate-600">{t('pages.components.sample', { page: page.nav })}</p>
        <nav aria-label={t('pages.components.title')} className="mt-4 flex flex-wrap gap-2">
          {BLOCK_KINDS.map((k) => (
            <Link
              key={k}
              to={lp(`/tools/components/${BLOCK_SLUGS[k]}`)}
              aria-current={k === kind ? 'page' : undefined}
              className={`rounded-full border px-3 py-1 text-xs font-semibold ${k === kind ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 text-slate-700 hover:border-slate-400'}`}
            >
              {t(`pages.components.kinds.${k}`)}
            </Link>
          ))}
        </nav>
      </div>
      <div className="mt-6 border-y border-dashed border-slate-300">
        <Block page={page} />
      </div>
    </>
  );
}

/** The gallery pages' loader: the sample page in the visitor's language. */
export async function galleryLoader({
  params,
  request,
  context,
}: {
  params: { lang?: string };
  request: Request;
  context: ServerContext;
}) {
  const page = await context.getToolPage(localeParam(params.lang), SAMPLE_TOOL);
  if (!page) throw notFound('unknown', new URL(request.url).pathname);
  return { page };
}
