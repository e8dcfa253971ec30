// Every page (docs/product.md#pages), declared once. app/routes.ts builds the route tree from this table
// and the login guard reads the auth flags from it, so the two can never disagree.
import { BLOCK_KINDS, BLOCK_SLUGS } from './tool-blocks';

export type LayoutKind = 'default' | 'bare';

export interface PageDef {
  /** The page's fixed name; also the route id. */
  name: string;
  /** Path without language prefix; '' is the index. */
  path: string;
  file: string;
  auth: boolean;
  layout: LayoutKind;
  children?: PageDef[];
}

export const PAGES: PageDef[] = [
  { name: 'index', path: '', file: 'routes/home.tsx', auth: false, layout: 'default' },
  { name: 'login', path: 'login', file: 'routes/auth/login.tsx', auth: false, layout: 'bare' },
  { name: 'register', path: 'register', file: 'routes/auth/register.tsx', auth: false, layout: 'bare' },
  {
    name: 'register-verification',
    path: 'register/verification',
    file: 'routes/auth/register-verification.tsx',
    auth: false,
    layout: 'bare',
  },
  {
    name: 'forgetPassword',
    path: 'forgetPassword',
    file: 'routes/auth/forget-password.tsx',
    auth: false,
    layout: 'bare',
  },
  {
    name: 'forgetPassword-sendSuccess',
    path: 'forgetPassword/sent',
    file: 'routes/auth/forget-password-sent.tsx',
    auth: false,
    layout: 'bare',
  },
  {
    name: 'resetPassword',
    path: 'resetPassword',
    file: 'routes/auth/reset-password.tsx',
    auth: false,
    layout: 'bare',
  },
  { name: 'terms', path: 'terms', file: 'routes/legal/terms.tsx', auth: false, layout: 'default' },
  {
    name: 'privacy-policy',
    path: 'privacy-policy',
    file: 'routes/legal/privacy-policy.tsx',
    auth: false,
    layout: 'default',
  },
  {
    name: 'privacy-policy-index_backup',
    path: 'privacy-policy/index_backup',
    file: 'routes/legal/privacy-policy-backup.tsx',
    auth: false,
    layout: 'default',
  },
  { name: 'pricing', path: 'pricing', file: 'routes/pricing.tsx', auth: false, layout: 'default' },
  { name: 'profile', path: 'profile', file: 'routes/profile.tsx', auth: true, layout: 'default' },
  {
    name: 'affiliate-apply',
    path: 'affiliate/apply',
    file: 'routes/affiliate/apply.tsx',
    auth: true,
    layout: 'default',
  },
  {
    name: 'affiliate',
    path: 'affiliate',
    file: 'routes/affiliate/layout.tsx',
    auth: true,
    layout: 'default',
    children: [
      {
        name: 'affiliate-Assets',
        path: 'Assets',
        file: 'routes/affiliate/assets.tsx',
        auth: true,
        layout: 'default',
      },
      {
        name: 'affiliate-Details',
        path: 'Details',
        file: 'routes/affiliate/details.tsx',
        auth: true,
        layout: 'default',
      },
      {
        name: 'affiliate-Dashboard',
        path: 'Dashboard',
        file: 'routes/affiliate/dashboard.tsx',
        auth: true,
        layout: 'default',
      },
      {
        name: 'affiliate-Settlement',
        path: 'Settlement',
        file: 'routes/affiliate/payouts.tsx',
        auth: true,
        layout: 'default',
      },
    ],
  },
  {
    name: 'affiliation',
    path: 'affiliation',
    file: 'routes/affiliation.tsx',
    auth: false,
    layout: 'default',
  },
  { name: 'dashboard', path: 'dashboard', file: 'routes/dashboard/index.tsx', auth: true, layout: 'default' },
  {
    name: 'dashboard-folder-id',
    path: 'dashboard/folder/:id',
    file: 'routes/dashboard/folder.tsx',
    auth: true,
    layout: 'default',
  },
  {
    name: 'transcript-id',
    path: 'transcript/:id',
    file: 'routes/transcript/view.tsx',
    auth: true,
    layout: 'default',
  },
  {
    name: 'transcript-share-id-shareid',
    path: 'transcript/share/:id/:shareid',
    file: 'routes/transcript/share.tsx',
    auth: false,
    layout: 'default',
  },
  { name: 'pay-success', path: 'pay-success', file: 'routes/pay-success.tsx', auth: true, layout: 'default' },
  // Team workspaces (docs/decisions/0027-team-workspaces.md): the current workspace's settings, a
  // new team, and the page an invitation link opens (public: it leads to sign-in or sign-up).
  {
    name: 'workspace',
    path: 'workspace',
    file: 'routes/workspace/settings.tsx',
    auth: true,
    layout: 'default',
  },
  {
    name: 'workspace-new',
    path: 'workspace/new',
    file: 'routes/workspace/new.tsx',
    auth: true,
    layout: 'default',
  },
  {
    name: 'invitation',
    path: 'invitation',
    file: 'routes/workspace/invitation.tsx',
    auth: false,
    layout: 'default',
  },
  ...BLOCK_KINDS.map((kind): PageDef => ({
    name: `tools-components-${BLOCK_SLUGS[kind]}`,
    path: `tools/components/${BLOCK_SLUGS[kind]}`,
    // Route files are named in kebab-case (moreTools → more-tools.tsx).
    file: `routes/tools/components/${kind.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}.tsx`,
    auth: false,
    layout: 'default',
  })),
  { name: 'tools-slug', path: 'tools/*', file: 'routes/tools/slug.tsx', auth: false, layout: 'default' },
  { name: 'not-found', path: '*', file: 'routes/not-found.tsx', auth: false, layout: 'default' },
];

/** Pages a logged-in user is sent away from. */
export const GUEST_ONLY_PAGES = new Set([
  'forgetPassword',
  'forgetPassword-sendSuccess',
  'login',
  'register',
  'resetPassword',
]);
