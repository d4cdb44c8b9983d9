import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// A function so that the local stack can also start Vite in process with
// createServer({ configFile: 'web/vite.config.ts' }) and read PORT/LOCAL_API_URL then.
export default defineConfig(() => {
  // The local API adapter serves /api, /dev and /config.json; Vite only serves the SPA.
  const apiTarget = process.env.LOCAL_API_URL ?? 'http://127.0.0.1:5174';
  const apiProxy = {
    '/api': { target: apiTarget },
    '/dev': { target: apiTarget },
  };
  return {
    root,
    plugins: [react()],
    server: {
      port: Number(process.env.PORT ?? 5173),
      strictPort: true,
      proxy: { ...apiProxy, '/config.json': { target: apiTarget } },
    },
    // `vite preview` serves dist/ as a deployment would: config.json is the file next
    // to the bundle (the deploy writes it), only the API is proxied.
    preview: { proxy: apiProxy },
    build: {
      outDir: 'dist',
      emptyOutDir: true,
      // Hashed file names: the bundle can be cached forever; index.html and config.json cannot.
      assetsDir: 'assets',
      // Every browser we serve supports <link rel=modulepreload>; the polyfill would be
      // bytes on the public page's first view for nothing.
      modulePreload: { polyfill: false },
      rolldownOptions: {
        output: {
          codeSplitting: {
            // Everything the entry imports statically is loaded on the first view anyway: one
            // file compresses better than the five shared chunks the bundler would otherwise
            // cut it into (React, i18next, the API client, ...), 1.4 KB gzip less. The later
            // steps and /admin import what they share from it, as they did from those chunks.
            groups: [{ name: 'index', tags: ['$initial' as const] }],
          },
        },
      },
    },
  };
});
