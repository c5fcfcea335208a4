#!/usr/bin/env node
// Development: the API server with reload (tsx watch) and Vite's dev server with HMR on 5173.
import { spawn } from 'node:child_process';

const children = [
  // APP_URL is the page's origin (Vite's): passkeys accept answers from it only, and e-mailed links open it.
  spawn('npx', ['tsx', 'watch', 'src/server/main.ts'], {
    stdio: 'inherit',
    env: { ...process.env, PORT: process.env.PORT ?? '3000', APP_URL: process.env.APP_URL ?? 'http://localhost:5173' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
