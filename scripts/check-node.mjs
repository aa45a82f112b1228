// Refuses to go on under a Node older than package.json's `engines.node` (">=X.Y.Z"), with a message
// that says what to do, instead of failing later on a missing API. Plain JavaScript with no imports
// beyond Node's own, so that it runs on any Node: npm start and npm test run it first.
// npm scripts run on the Node the project pins (the `node-<platform>-<arch>` package in
// node_modules/.bin, first on their PATH); this catches a platform without one, or a start by hand.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const wanted = pkg.engines?.node ?? '';
const match = /^>=(\d+)\.(\d+)\.(\d+)$/.exec(wanted);
if (!match) {
  console.error(`package.json engines.node must read ">=X.Y.Z" (it reads ${JSON.stringify(wanted)})`);
  process.exit(1);
}
const need = match.slice(1).map(Number);
const have = process.versions.node.split('.').map(Number);
// The first part that differs decides (24.9 < 24.15).
const first = need.findIndex((n, i) => have[i] !== n);
if (first >= 0 && have[first] < need[first]) {
  console.error(
    [
      `This project needs Node ${wanted}; this is Node ${process.versions.node} (${process.execPath}).`,
      'Run it through npm (npm start, npm test), which uses the Node that `npm install` put in node_modules/.bin,',
      'or put node_modules/.bin first on PATH. On a platform without a pinned Node package, install Node 24 LTS.',
    ].join('\n'),
  );
  process.exit(1);
}
