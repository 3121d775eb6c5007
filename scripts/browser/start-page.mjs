// How soon the start page answers (issue goal: within 1 s of the request on loopback), as a
// guest's browser meets it: a page it has never loaded (a fresh context: nothing cached, no
// compiled module kept), in a browser already running. Each of BROWSERS Chromiums, just
// launched, loads the page LOADS times; its first load also pays the browser's own start (its
// GPU process comes up with the first page drawn), so it is printed apart. Prints figures;
// checks nothing (the machine's load moves them).
//
//   node scripts/browser/start-page.mjs HOST_BINARY [BUNDLE_DIR|built-in] [BROWSERS] [LOADS]
//
// Bounded: BROWSERS ≤ 10, LOADS ≤ 20, every load 30 s at most.

import { startHost, launchChromium, startPageMs, pageFlags } from './lib.mjs';

const [hostBin, bundle = 'built-in', browsersArg = '3', loadsArg = '7'] = process.argv.slice(2);
if (!hostBin) {
  console.error('usage: node scripts/browser/start-page.mjs HOST_BINARY [BUNDLE_DIR|built-in] [BROWSERS] [LOADS]');
  process.exit(2);
}
const browsers = Math.min(10, Math.max(1, Number(browsersArg) || 3));
const loads = Math.min(20, Math.max(2, Number(loadsArg) || 7));
const { info } = await startHost(hostBin, pageFlags(bundle));
const url = `${info.web[0]}/#${info.code.split('-')[0]}`;
const first = [];
const later = [];
for (let b = 0; b < browsers; b++) {
  const browser = await launchChromium();
  const row = [];
  for (let i = 0; i < loads; i++) row.push(await startPageMs(browser, url));
  await browser.close();
  console.log(`start page: browser ${b + 1}: ${row.join(', ')} ms`);
  first.push(row[0]);
  later.push(...row.slice(1));
}
later.sort((a, b) => a - b);
const at = (q) => later[Math.min(later.length - 1, Math.floor(q * later.length))];
console.log(`start page: in a running browser ${later.length} loads, p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, `
  + `max ${later[later.length - 1]} ms; a browser's first page (its own start with it) ${first.join(', ')} ms`);
process.exit(0);
