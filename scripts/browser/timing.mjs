// A browser hand's own stamps, measured from outside the page (fairness.md §2), as
// scripts/window-timing.py measures the window's: the page's warm-up in Debian's Chromium,
// headless, driven over the DevTools protocol. For each trial it reads from the page's console
// (`?log=bolide::drill`) when the reservoirs are due, watches Chromium's screencast for the
// first compositor frame that carries them, waits a human reaction, then sends a key, a mouse
// click or a touch — and compares
//   input error = the page's `input` stamp − the instant the press was sent (this process's
//                 CLOCK_MONOTONIC, lined up with the page's `performance.now()` by the
//                 quickest of 200 round trips; half of it is the offset's uncertainty), the
//                 press carrying the system's stamp of that instant (see `press`)
//   shown error = the page's `shown` stamp − the instant of the first compositor frame whose
//                 pixels carry the reservoirs (decoded from the screencast's PNG): the time
//                 Chromium's compositor gives the frame it drew them in, the refresh it drew
//                 at (on the page's clock through `performance.timeOrigin`; the labels fall on
//                 the grid of `requestAnimationFrame` times within 0.1 ms).
// Prints p50/p99 (ms) as JSON on the last line — with the reaction's error (input error −
// shown error: what the host's reaction is off by) and, of every two grabs on time, the share
// two hands 0.5–2 ms apart would be ordered wrong by them; writes every trial to TRIALS_JSON.
// PAGE_CLOCK gives the page another browser's clock (lib.mjs, `emulatePageClock`).
//
//   node scripts/browser/timing.mjs HOST_BINARY BUNDLE_DIR TRIALS LABEL TRIALS_JSON
//
// Bounded: every wait has a deadline; the run, 4 s a trial and 2 minutes more.

import { startHost, launchChromium, until, nowNs, lineUpClocks, summary, pageFlags, pageClock, emulatePageClock, realTime } from './lib.mjs';
import { decodePng } from './png.mjs';
import { writeFileSync } from 'node:fs';

const [hostBin, bundle, trialsArg, label, trialsJson] = process.argv.slice(2);
const TRIALS = Number(trialsArg);
if (!hostBin || !bundle || !(TRIALS > 0) || !label || !trialsJson) {
  console.error('usage: node scripts/browser/timing.mjs HOST_BINARY BUNDLE_DIR TRIALS LABEL TRIALS_JSON');
  process.exit(2);
}
const budgetMs = TRIALS * 4000 + 120_000;
const deadline = Date.now() + budgetMs;
setTimeout(() => { console.error('browser timing: out of time'); process.exit(1); }, budgetMs).unref();

// The page as a 1280×800 laptop screen that also takes touches. Its coordinates: the warm-up
// button on the start page, the first reservoir's pixel, where a click and a touch land.
const VIEW = { width: 1280, height: 800 };
const WARM_UP = [55, 303];
const PIXEL = [185, 165];
const CLICK = [245, 195];
const TOUCH = [561, 195];
const KEYS = ['1', '2', '3', '4', '5', '6'];

const { info } = await startHost(hostBin, [...pageFlags(bundle)]);
const browser = await launchChromium();
// Chromium's browser process takes the system's input events (it is where a key's
// `timeStamp` is set): it plays the X server's part and, as window-timing.sh runs Xvfb and its
// poller, runs at a real-time priority where that is allowed, with this process — the
// instrument. The page meets the busy cores: its renderer (started later by the browser,
// which does not hand its priority on) and its GPU process, where SwiftShader draws its
// frames as Mesa draws the window's in the window's own process. The compositor's frame
// labels are the refreshes it drew at, whenever this process reads them.
const instrument = realTime();
const context = await browser.newContext({ viewport: VIEW, hasTouch: true });
const emulated = await emulatePageClock(context);
const page = await context.newPage();

// The warm-up's lines: `cup trial=N reveal_at_us=…`, `shown trial=N shown_us=…`,
// `input trial=N input_us=…`, and the clock's zero on `performance.now()`.
let zeroPageUs = null;
const trials = new Map();
let lastCup = 0;
page.on('console', (m) => {
  const text = m.text();
  if (text.includes('ui::stamp')) console.error(`page: ${text}`);
  if (!text.includes('bolide::drill')) return;
  const fields = Object.fromEntries([...text.matchAll(/(\w+)=(-?\d+)/g)].map(([, k, v]) => [k, Number(v)]));
  if ('zero_page_us' in fields) zeroPageUs = fields.zero_page_us;
  if (!('trial' in fields)) return;
  const t = trials.get(fields.trial) ?? {};
  Object.assign(t, fields);
  trials.set(fields.trial, t);
  if ('reveal_at_us' in fields) lastCup = Math.max(lastCup, fields.trial);
});
const wait = async (pred, ms, what) => {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end || Date.now() > deadline) throw new Error(`browser timing: no ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
};

await page.goto(`${info.web[0]}/?log=bolide::drill,bolide_client::ui::stamp#${info.code.split('-')[0]}`);
await until(page, /^Bolide$/, 'start page', deadline);
const cdp = await context.newCDPSession(page);
const clock = await pageClock(page);
// Not cross-origin isolated, `timeOrigin` is coarsened too: the labels' offset is within a step.
const origin = await page.evaluate(() => performance.timeOrigin);
const { offsetNs, uncertaintyMs } = await lineUpClocks(cdp);
/// The page's time (ms of `performance.now()`) on this process's clock, in ns.
const pageToNs = (ms) => BigInt(Math.round(ms * 1e6)) + offsetNs;

// Every compositor frame: its label on the page's clock, and whether the first reservoir is
// coloured in it (the cup is grey).
const frames = [];
cdp.on('Page.screencastFrame', (f) => {
  cdp.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => {});
  const png = decodePng(Buffer.from(f.data, 'base64'));
  const [r, g, b] = png.at(Math.round(PIXEL[0] * png.width / VIEW.width), Math.round(PIXEL[1] * png.height / VIEW.height));
  const coloured = Math.max(r, g, b) - Math.min(r, g, b) >= 12;
  frames.push({ label: f.metadata.timestamp * 1000 - origin, coloured });
  if (frames.length > 4096) frames.splice(0, 2048);
});
// An eighth of the page's size is enough to tell a reservoir's colour, and less for the browser
// to encode while the page runs. Chromium captures a frame only once the one before was
// acknowledged (some 50 ms a frame here), so it cannot follow a page that draws every refresh;
// the warm-up's cup stays still until the reveal, whose frame is then the first the compositor
// makes, and the first captured.
const SCALE = 8;
await cdp.send('Page.startScreencast', { format: 'png', everyNthFrame: 1, maxWidth: VIEW.width / SCALE, maxHeight: VIEW.height / SCALE });

await page.mouse.click(...WARM_UP);
await wait(() => zeroPageUs !== null && lastCup > 0, 10_000, 'warm-up (is `?log=bolide::drill` read?)');

// A press carries the system's stamp of the instant it was sent (`timestamp`, seconds since
// the epoch on this process's clock), as X11, Wayland, Windows, macOS and Android stamp every
// event a browser gets — the X server stamps the window's presses the same way. With
// INPUT_STAMP=devtools it carries none, and Chromium stamps it when the DevTools command
// reaches its browser process: the instrument's own lag, added.
const systemStamp = (process.env.INPUT_STAMP ?? 'system') === 'system';
const epochS = () => (performance.timeOrigin + performance.now()) / 1000;
const at = (sentEpoch) => (systemStamp ? { timestamp: sentEpoch } : {});

async function press(kind) {
  const hold = 50 + Math.random() * 50;
  let sent;
  if (kind === 'key') {
    const key = KEYS[Math.floor(Math.random() * KEYS.length)];
    const down = { key, code: `Digit${key}`, text: key, windowsVirtualKeyCode: key.charCodeAt(0) };
    sent = nowNs();
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyDown', ...down, ...at(epochS()) });
    await new Promise((r) => setTimeout(r, hold));
    await cdp.send('Input.dispatchKeyEvent', { type: 'keyUp', key, code: down.code, windowsVirtualKeyCode: down.windowsVirtualKeyCode });
  } else if (kind === 'click') {
    const [x, y] = CLICK;
    sent = nowNs();
    await cdp.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1, ...at(epochS()) });
    await new Promise((r) => setTimeout(r, hold));
    await cdp.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
  } else {
    const [x, y] = TOUCH;
    sent = nowNs();
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }], ...at(epochS()) });
    await new Promise((r) => setTimeout(r, hold));
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
  return sent;
}

const nextCup = async (trial) => {
  try {
    await wait(() => lastCup > trial, 5000, 'next cup');
  } catch {
    // A press the warm-up did not take (it landed as the result was drawn): once more.
    await press('key');
    await wait(() => lastCup > trial, 5000, 'next cup');
  }
};

const rows = [];
let missed = 0;
const kinds = ['key', 'click', 'touch'];
while (rows.length < TRIALS) {
  const trial = lastCup;
  await wait(() => 'reveal_at_us' in (trials.get(trial) ?? {}), 10_000, 'cup');
  const dueMs = (trials.get(trial).reveal_at_us + zeroPageUs) / 1000;
  // The first frame carrying the reservoirs at or after the frame before the one they are due in.
  await wait(() => frames.some((f) => f.coloured && f.label >= dueMs - 17), 5000, `reservoirs on screen (trial ${trial})`);
  const first = frames.find((f) => f.coloured && f.label >= dueMs - 17);
  await new Promise((r) => setTimeout(r, 150 + Math.random() * 200)); // a person's reaction
  const kind = kinds[rows.length % kinds.length];
  const sent = await press(kind);
  try {
    await wait(() => 'input_us' in trials.get(trial) && 'shown_us' in trials.get(trial), 3000, 'input');
  } catch {
    missed += 1;
    console.error(`trial ${trial}: the page logged no input`);
    await nextCup(trial);
    continue;
  }
  const t = trials.get(trial);
  const inputMs = Number(pageToNs((t.input_us + zeroPageUs) / 1000) - sent) / 1e6;
  const shownPageMs = (t.shown_us + zeroPageUs) / 1000;
  rows.push({ trial, kind, input_ms: inputMs, shown_page_ms: shownPageMs, label_ms: first.label });
  await nextCup(trial);
}

// The refresh interval: the labels' least positive step (every label is on the grid).
const labels = [...new Set(frames.map((f) => f.label))].sort((a, b) => a - b);
const steps = labels.slice(1).map((l, i) => l - labels[i]).filter((d) => d > 1);
const interval = steps.length ? Math.min(...steps) : 1000 / 60;
for (const r of rows) r.shown_ms = r.shown_page_ms - r.label_ms;
// Two hands `gap` ms apart are ordered wrong when the faster's reaction is counted `gap` more
// late than the slower's: of every two grabs on time (a hand each way), the share that would be.
const errors = rows.filter((r) => Math.abs(r.shown_ms) < interval / 2).map((r) => r.input_ms - r.shown_ms);
const misordered = (gap) => {
  let wrong = 0;
  for (let i = 0; i < errors.length; i++) for (let j = i + 1; j < errors.length; j++) if (Math.abs(errors[i] - errors[j]) > gap) wrong += 1;
  const pairs = errors.length * (errors.length - 1);
  return pairs ? Math.round((wrong / pairs) * 1e5) / 1e5 : null;
};
writeFileSync(trialsJson, JSON.stringify(rows));
await browser.close();
const by = (kind) => summary(rows.filter((r) => r.kind === kind).map((r) => r.input_ms));
console.log(JSON.stringify({
  label, trials: rows.length, missed, instrument_real_time: instrument, page: info.web[0], page_clock: { ...clock, emulated },
  input_stamped_by: systemStamp ? 'system (the instant sent)' : 'Chromium, on the DevTools command', refresh_interval_ms: Math.round(interval * 1000) / 1000,
  clock_offset_uncertainty_ms: Math.round(uncertaintyMs * 1000) / 1000,
  shown_error_ms: summary(rows.map((r) => r.shown_ms)),
  input_error_ms: summary(rows.map((r) => r.input_ms)),
  // What the host's reaction (input − shown) is off by; the frames a refresh early apart.
  reaction_error_ms: summary(rows.map((r) => r.input_ms - r.shown_ms)),
  reaction_error_ms_on_time: summary(errors),
  misordered_share: { '0.5ms': misordered(0.5), '1ms': misordered(1), '1.5ms': misordered(1.5), '2ms': misordered(2) },
  input_error_ms_key: by('key'), input_error_ms_click: by('click'), input_error_ms_touch: by('touch'),
}));
process.exit(0);
