/** Questions that open to their answers (native details/summary: works without JavaScript). */
export function FaqList({
  items,
  className = '',
}: {
  items: { q: string; a: string }[];
  className?: string;
}) {
  return (
    <div className={`divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white ${className}`}>
      {items.map((item) => (
        <details key={item.q} className="px-5 py-4">
          <summary className="cursor-pointer font-medium text-slate-900">{item.q}</summary>
          <p className="mt-2 text-sm leading-6 text-slate-600">{item.a}</p>
        </details>
      ))}
    </div>
  );
}
