import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The SPA lives in src/web and is served by the Fastify server from dist/web in production.
// In development `npm run dev` runs Vite on 5173 and forwards /api and /dev to the API server.
export default defineConfig({
  root: 'src/web',
  publicDir: '../../public',
  plugins: [react()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    // Every browser we support has modulepreload; the polyfill costs the landing page 0.5 KB.
    modulePreload: { polyfill: false },
  },
  server: {
    port: 5173,
    proxy: { '/api': 'http://localhost:3000', '/dev/mailbox/api': 'http://localhost:3000' },
  },
});
