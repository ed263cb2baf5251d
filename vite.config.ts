import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The API host build setting (README "Configuration"): a production build talks to the origin that
// served it unless VITE_API_ORIGIN says otherwise; the dev server follows SPEC §7's host rule.
export default defineConfig(({ command }) => ({
  plugins: [react()],
  define: {
    'import.meta.env.VITE_API_ORIGIN': JSON.stringify(
      process.env.VITE_API_ORIGIN ?? (command === 'build' ? 'self' : ''),
    ),
  },
  server: { port: 5173, strictPort: true },
  build: { target: 'es2022', sourcemap: true },
}));
