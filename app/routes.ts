import { index, layout, route, type RouteConfig, type RouteConfigEntry } from '@react-router/dev/routes';
import { PAGES, type PageDef } from '../common/pages';

// Every page is declared once inside `:lang?`, so /login and /de/login share one lazily
// loaded module; fixed segments rank above the optional language segment.
function entry(p: PageDef): RouteConfigEntry {
  if (p.path === '') return index(p.file, { id: p.name });
  return route(p.path, p.file, { id: p.name }, p.children?.map(entry));
}

const byLayout = (kind: PageDef['layout']) => PAGES.filter((p) => p.layout === kind).map(entry);

export default [
  route(':lang?', 'routes/lang.tsx', { id: 'lang' }, [
    layout('layouts/default.tsx', { id: 'layout-default' }, byLayout('default')),
    layout('layouts/bare.tsx', { id: 'layout-bare' }, byLayout('bare')),
  ]),
] satisfies RouteConfig;
