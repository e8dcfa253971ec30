import { Outlet } from 'react-router';
import { Logo } from '../components/layout/logo';
import { LanguageSwitcher } from '../components/layout/language-switcher';

/** The "no layout" pages (login, register, password reset): a focused card. */
export default function BareLayout() {
  return (
    <div className="flex min-h-screen flex-col bg-gradient-to-b from-brand-50 to-white">
      <div className="mx-auto flex w-full max-w-6xl items-center justify-between px-4 py-5 sm:px-6">
        <Logo />
        <LanguageSwitcher />
      </div>
      <main id="main" className="flex flex-1 items-start justify-center px-4 pb-16 pt-6 sm:pt-12">
        <div className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
          <Outlet />
        </div>
      </main>
    </div>
  );
}
