// How soon the start page answers (issue goal: within 1 s of the request on loopback), as a
// guest's browser meets it: a page it has never loaded (a fresh context: nothing cached, no
// compiled module kept). Three ways a guest comes:
// - in a browser already running (a new tab: the address typed, the QR code scanned);
// - in a browser just opened, its tab open a moment (1.5 s) before the address is asked for;
// - in a browser started by the address itself (a QR code opening a closed browser): then the
//   request comes while the browser is still starting its first tab, and that start is in the
//   figure too. How much of it is the browser's own, a control says: a page of a few hundred
//   bytes from a server of this script's that draws one WebGL frame and names itself, loaded
//   the same two ways (started by its address, then running).
// Each of BROWSERS Chromiums is launched three times: once to load the page at once and then
// LOADS−1 times more (running), once to load it after its tab stood open (just opened), once
// for the control. Prints figures; checks nothing (the machine's load moves them).
//
//   node scripts/browser/start-page.mjs HOST_BINARY [BUNDLE_DIR|built-in] [BROWSERS] [LOADS]
//
// Bounded: BROWSERS ≤ 10, LOADS ≤ 20, every load 30 s at most.

import { startHost, launchChromium, startPageMs, pageFlags } from './lib.mjs';
import { createServer } from 'node:http';

const [hostBin, bundle = 'built-in', browsersArg = '3', loadsArg = '7'] = process.argv.slice(2);
if (!hostBin) {
  console.error('usage: node scripts/browser/start-page.mjs HOST_BINARY [BUNDLE_DIR|built-in] [BROWSERS] [LOADS]');
  process.exit(2);
}
const browsers = Math.min(10, Math.max(1, Number(browsersArg) || 3));
const loads = Math.min(20, Math.max(2, Number(loadsArg) || 7));
/// How long a just-opened browser's tab stands open before the address: the moment a guest
/// takes to type it is longer still.
const TAB_OPEN_MS = 1500;
const { info } = await startHost(hostBin, pageFlags(bundle));
const url = `${info.web[0]}/#${info.code.split('-')[0]}`;
// The control: the least a page drawn with WebGL costs — one clear, then the title the
// measure waits for (as the start page sets it after its first frame).
const CONTROL = `<!doctype html><title>Control</title><canvas id="c"></canvas><script>
requestAnimationFrame(() => { const gl = document.getElementById('c').getContext('webgl2');
gl.clearColor(0.1, 0.1, 0.12, 1); gl.clear(gl.COLOR_BUFFER_BIT);
requestAnimationFrame(() => { document.title = 'Bolide'; }); });</script>`;
const control = createServer((_, res) => { res.writeHead(200, { 'content-type': 'text/html' }); res.end(CONTROL); });
await new Promise((ok) => control.listen(0, '127.0.0.1', ok));
const controlUrl = `http://127.0.0.1:${control.address().port}/`;
const controlFirst = [];
const controlRunning = [];
const startedBy = [];
const opened = [];
const running = [];
for (let b = 0; b < browsers; b++) {
  let browser = await launchChromium();
  const row = [];
  for (let i = 0; i < loads; i++) row.push(await startPageMs(browser, url));
  await browser.close();
  browser = await launchChromium();
  const fresh = await startPageMs(browser, url, TAB_OPEN_MS);
  await browser.close();
  browser = await launchChromium();
  const controlRow = [];
  for (let i = 0; i < 3; i++) controlRow.push(await startPageMs(browser, controlUrl));
  await browser.close();
  console.log(`start page: browser ${b + 1}: started by the address ${row[0]} ms, then running ${row.slice(1).join(', ')} ms; `
    + `just opened ${fresh} ms; the control ${controlRow.join(', ')} ms`);
  controlFirst.push(controlRow[0]);
  controlRunning.push(...controlRow.slice(1));
  startedBy.push(row[0]);
  running.push(...row.slice(1));
  opened.push(fresh);
}
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const stats = (xs) => {
  const s = sorted(xs);
  const at = (q) => s[Math.min(s.length - 1, Math.floor(q * s.length))];
  return `p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${s[s.length - 1]} ms`;
};
console.log(`start page: in a running browser ${running.length} loads, ${stats(running)}; `
  + `in a browser just opened ${opened.length}, ${stats(opened)}; `
  + `in a browser started by the address (its own start in it) ${sorted(startedBy).join(', ')} ms; `
  + `the control started by its address ${sorted(controlFirst).join(', ')} ms, running ${stats(controlRunning)}`);
process.exit(0);
