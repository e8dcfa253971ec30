import type { ReactNode } from 'react';

/** The common frame of content pages: a heading block and the page's body. */
export function PageFrame({
  heading,
  subtitle,
  actions,
  children,
  width = 'max-w-6xl',
}: {
  heading: ReactNode;
  subtitle?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  width?: string;
}) {
  return (
    <div className={`mx-auto w-full ${width} px-4 py-10 sm:px-6 sm:py-14`}>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">{heading}</h1>
          {subtitle ? <p className="mt-2 max-w-2xl text-slate-600">{subtitle}</p> : null}
        </div>
        {actions}
      </div>
      {children ? <div className="mt-8">{children}</div> : null}
    </div>
  );
}
