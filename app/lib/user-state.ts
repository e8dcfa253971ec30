import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { readCookie } from '../../common/cookies';
import { isCustomizedRank, lockedFormats, RANK_LIMITS, type LockedFormat } from '../../common/ranks';
import { api } from './api';

// The signed-in state (docs/product.md#browser-state), mirrored in readable cookies (the session token itself is httpOnly).
export const STATE_COOKIES = ['userinfo', 'permissions_quota', 'rank', 'isLogin', 'isCustomize'] as const;
const MAX_AGE = 30 * 24 * 3600;

export interface UserInfo {
  id: string;
  email: string;
  name: string | null;
  avatar: string | null;
  rank_name: string;
  language: string;
  email_verified: boolean;
  has_password: boolean;
  google_linked: boolean;
  created_at: string;
}

export interface PermissionsQuota {
  minutes_per_month: number | null;
  minutes_used: number;
  minutes_left: number | null;
  max_file_mb: number;
  max_duration_minutes: number;
  concurrent_jobs: number;
  share_links: number | null;
  export_formats: string[];
  retention_days: number | null;
  /** Absent in a cookie written before API keys existed. */
  api_requests_per_minute?: number;
  period_start: string;
  period_end: string;
  /** The formats the plan lacks, with the cheapest plan that has each; absent in older cookies. */
  export_formats_locked?: LockedFormat[];
}

export interface UserPayload {
  user: UserInfo;
  permissions_quota: PermissionsQuota;
  rank: { name: string; standard: string | null; customized: boolean };
}

export interface UserState {
  userinfo: UserInfo | null;
  permissions_quota: PermissionsQuota | null;
  rank: UserPayload['rank'] | null;
  isLogin: boolean;
  isCustomize: boolean;
}

function setCookie(name: string, value: string, maxAge = MAX_AGE) {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure}`;
}

/** After a user fetch with code 200: logged in, cookies written. */
export function writeUserState(payload: UserPayload): void {
  setCookie('userinfo', JSON.stringify(payload.user));
  setCookie('permissions_quota', JSON.stringify(payload.permissions_quota));
  setCookie('rank', JSON.stringify(payload.rank));
  setCookie('isLogin', '1');
  setCookie('isCustomize', isCustomizedRank(payload.user.rank_name) ? '1' : '0');
  window.dispatchEvent(new Event('clipscribe:user'));
}

export function clearUserState(): void {
  for (const name of STATE_COOKIES) setCookie(name, '', 0);
  window.dispatchEvent(new Event('clipscribe:user'));
}

function parse<T>(raw: string | null): T | null {
  if (!raw) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function readUserState(cookieHeader: string): UserState {
  return {
    userinfo: parse<UserInfo>(readCookie(cookieHeader, 'userinfo')),
    permissions_quota: parse<PermissionsQuota>(readCookie(cookieHeader, 'permissions_quota')),
    rank: parse<UserPayload['rank']>(readCookie(cookieHeader, 'rank')),
    isLogin: readCookie(cookieHeader, 'isLogin') === '1',
    isCustomize: readCookie(cookieHeader, 'isCustomize') === '1',
  };
}

/** Fetches the user; a failed fetch is ignored silently. */
export async function refreshUserState(): Promise<UserPayload | null> {
  try {
    const payload = await api.get<UserPayload>('/common-api/v1/user', undefined, { handleErrors: true });
    writeUserState(payload);
    return payload;
  } catch {
    return null;
  }
}

const EMPTY: UserState = {
  userinfo: null,
  permissions_quota: null,
  rank: null,
  isLogin: false,
  isCustomize: false,
};

/** The client state, restored from the cookies on every navigation and after each user fetch. */
export function useUserState(): UserState {
  const location = useLocation();
  const [state, setState] = useState<UserState>(EMPTY);
  useEffect(() => {
    const read = () => setState(readUserState(document.cookie));
    read();
    window.addEventListener('clipscribe:user', read);
    return () => window.removeEventListener('clipscribe:user', read);
  }, [location.key]);
  return state;
}

/**
 * What the signed-in user can export, and what the plan lacks with the cheapest plan that has
 * it (computed here too for a cookie written before the API said so).
 */
export function planFormats(state: UserState): { formats: string[]; locked: LockedFormat[] } {
  const quota = state.permissions_quota;
  const formats = quota?.export_formats ?? RANK_LIMITS.Free.export_formats;
  return {
    formats,
    locked: quota?.export_formats_locked ?? lockedFormats(state.rank?.name ?? 'Free', formats),
  };
}
