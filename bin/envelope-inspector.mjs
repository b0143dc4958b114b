#!/usr/bin/env node
// Runs the TypeScript CLI through tsx's loader, so a checkout works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/index.ts');
