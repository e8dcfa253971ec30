import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { parseMarkdown, type Inline } from '../../../common/cited-markdown';

/**
 * Markdown a language model wrote, shown as text: only headings, paragraphs, lists, quotes,
 * emphasis and code, every character escaped by React; no HTML, no links, no images. The only
 * interactive parts are our `[12:34]` citations, which play the media from there.
 */
export function MarkdownView({ markdown, onSeek }: { markdown: string; onSeek?: (seconds: number) => void }) {
  const { t } = useTranslation();
  const inline = (parts: Inline[]): ReactNode =>
    parts.map((p, i) => {
      switch (p.t) {
        case 'text':
          return <span key={i}>{p.v}</span>;
        case 'strong':
          return <strong key={i}>{inline(p.v)}</strong>;
        case 'em':
          return <em key={i}>{inline(p.v)}</em>;
        case 'code':
          return (
            <code key={i} className="rounded bg-slate-100 px-1 text-[0.9em]">
              {p.v}
            </code>
          );
        case 'cite':
          return onSeek ? (
            <button
              key={i}
              type="button"
              data-testid="cite"
              data-start={p.seconds}
              onClick={() => onSeek(p.seconds)}
              aria-label={t('ai.cite', { time: p.clock })}
              className="rounded bg-brand-50 px-1 font-mono text-xs text-brand-700 hover:bg-brand-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
            >
              [{p.clock}]
            </button>
          ) : (
            <span key={i} className="font-mono text-xs text-slate-500">
              [{p.clock}]
            </span>
          );
      }
    });
  return (
    <div className="space-y-2 break-words text-sm text-slate-800" data-testid="ai-markdown">
      {parseMarkdown(markdown).map((b, i) => {
        switch (b.t) {
          case 'heading': {
            const cls =
              b.level === 1
                ? 'text-base font-semibold text-slate-900'
                : b.level === 2
                  ? 'text-sm font-semibold text-slate-900'
                  : 'text-sm font-medium text-slate-800';
            const Tag = b.level === 1 ? 'h3' : b.level === 2 ? 'h4' : 'h5';
            return (
              <Tag key={i} className={cls}>
                {inline(b.v)}
              </Tag>
            );
          }
          case 'list': {
            const Tag = b.ordered ? 'ol' : 'ul';
            return (
              <Tag key={i} className={`${b.ordered ? 'list-decimal' : 'list-disc'} space-y-1 pl-5`}>
                {b.items.map((item, j) => (
                  <li key={j}>{inline(item)}</li>
                ))}
              </Tag>
            );
          }
          case 'quote':
            return (
              <blockquote key={i} className="border-l-2 border-slate-300 pl-3 text-slate-600">
                {inline(b.v)}
              </blockquote>
            );
          case 'rule':
            return <hr key={i} className="border-slate-200" />;
          default:
            return <p key={i}>{inline(b.v)}</p>;
        }
      })}
    </div>
  );
}
