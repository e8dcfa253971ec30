import { Link } from 'react-router';
import { useLocalePath, useRootData } from '../../lib/use-locale';

export function Logo() {
  const lp = useLocalePath();
  const name = useRootData()?.config.appName ?? 'ClipScribe';
  return (
    <Link to={lp('/')} className="flex items-center gap-2 font-semibold text-slate-900" aria-label={name}>
      <svg viewBox="0 0 32 32" className="h-8 w-8" aria-hidden>
        <rect width="32" height="32" rx="8" fill="#2563eb" />
        <path d="M11 9.5v13l10-6.5-10-6.5z" fill="#fff" />
        <path d="M8 25h16" stroke="#bcd7ff" strokeWidth="2" strokeLinecap="round" />
      </svg>
      <span className="text-lg tracking-tight">{name}</span>
    </Link>
  );
}
