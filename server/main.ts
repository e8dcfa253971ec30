// The web server's entry (`npm start`, `npm run dev` with --dev): everything is in serve.ts.
import { serve } from './serve';

serve({ dev: process.argv.includes('--dev') }).catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
