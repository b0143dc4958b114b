// Makes sure Debian's Chromium is there for Playwright (never a downloaded browser build).
// Installs it with apt when it is missing and we run as root; otherwise says what to do.
import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (existsSync(path)) process.exit(0);
if (process.getuid?.() !== 0) {
  console.error(`Chromium is not at ${path}. Install Debian's package (sudo apt-get install -y chromium) or set CHROMIUM_PATH.`);
  process.exit(1);
}
console.log('Installing Debian chromium for the Playwright tests…');
execSync('apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium', { stdio: 'inherit' });
