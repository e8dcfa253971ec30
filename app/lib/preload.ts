// Warms the route modules of the main pages after the first render, about 4 at a time (docs/product.md#navigation).
const PARALLEL = 4;

interface Manifest {
  routes: Record<string, { module: string; imports?: string[] }>;
}

export async function preloadRoutes(ids: string[]): Promise<void> {
  const manifest = (window as unknown as { __reactRouterManifest?: Manifest }).__reactRouterManifest;
  if (!manifest) return;
  const modules = ids.map((id) => manifest.routes[id]?.module).filter((m): m is string => !!m);
  let next = 0;
  const worker = async () => {
    while (next < modules.length) {
      const mod = modules[next++]!;
      try {
        await import(/* @vite-ignore */ mod);
      } catch {
        // A failed warm-up costs nothing: the real navigation loads it again.
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, modules.length) }, worker));
}
