/** Numbered steps in a row of cards (landing page, tool pages, affiliate programme). */
export function StepCards({
  steps,
  className = 'mt-8',
}: {
  steps: { title: string; text: string }[];
  className?: string;
}) {
  return (
    <ol className={`${className} grid gap-6 md:grid-cols-3`}>
      {steps.map((s, i) => (
        <li key={s.title} className="rounded-xl bg-white p-6 shadow-sm">
          <span className="flex h-8 w-8 items-center justify-center rounded-full bg-brand-600 text-sm font-bold text-white">
            {i + 1}
          </span>
          <h3 className="mt-4 font-semibold text-slate-900">{s.title}</h3>
          <p className="mt-2 text-sm leading-relaxed text-slate-600">{s.text}</p>
        </li>
      ))}
    </ol>
  );
}
