// What every browser script shares: a `bolide-host serve` to talk to, Debian's Chromium
// headless, the page's title to follow, and the two clocks lined up.

import { chromium } from 'playwright-core';
import { spawn, execFileSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { decodePng } from './png.mjs';

/// Where the host listens: on loopback, or in the network namespace scripts/lan.sh made (a
/// LAN's address, where a page is no secure context, as on a game night).
export const hostAddress = process.env.BOLIDE_HOST_ADDR ?? '127.0.0.1';

/// `bolide-host serve ARGS --json` at `hostAddress`, with a data folder of its own; resolves
/// to { host (the child), info (its JSON line), log() (its stderr so far), data (its folder) }.
export async function startHost(hostBin, args) {
  const data = mkdtempSync(join(tmpdir(), 'bolide-browser-'));
  const serve = [hostBin, 'serve', '--bind', `${hostAddress}:0`, '--json', '--no-mdns', '--data-dir', data, ...args];
  // `ip netns exec` runs the host in its own process (it execs), so killing it kills the host.
  const netns = process.env.BOLIDE_HOST_NETNS;
  const [command, ...rest] = netns ? ['ip', 'netns', 'exec', netns, ...serve] : serve;
  const host = spawn(command, rest, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  host.stderr.on('data', (d) => { log += d; });
  // Its folder goes with a script that passed; one that failed leaves it to be read.
  process.on('exit', (code) => {
    host.kill('SIGKILL');
    if (code === 0) rmSync(data, { recursive: true, force: true });
  });
  const info = await new Promise((resolve, reject) => {
    createInterface({ input: host.stdout }).once('line', (line) => resolve(JSON.parse(line)));
    host.once('exit', (code) => reject(new Error(`the host exited (${code}): ${log}`)));
  });
  return { host, info, log: () => log, data };
}

/// Debian's Chromium (or $CHROMIUM), headless, drawing with SwiftShader's GL. A page that
/// panics (its wasm stops: the canvas freezes on its last frame while the title may have moved
/// on) ends the script at once, with the panic's message.
export async function launchChromium() {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const watch = (page) => {
    page.on('console', (m) => { if (m.text().includes('panicked at')) console.error(`a page panicked: ${m.text().slice(0, 2000)}`); });
    page.on('pageerror', (e) => { console.error(`a page stopped (${page.url()}): ${e.stack ?? e}`); process.exit(1); });
  };
  const [newPage, newContext] = [browser.newPage.bind(browser), browser.newContext.bind(browser)];
  browser.newPage = async (options) => { const page = await newPage(options); watch(page); return page; };
  browser.newContext = async (options) => { const context = await newContext(options); context.on('page', watch); return context; };
  return browser;
}

/// Puts Chromium's browser process (this process's child), this process and `others` (pids) at
/// SCHED_FIFO 10, where that is allowed; says whether it could. The browser process takes the
/// system's input events (where a press's `timeStamp` is set) and this process sends them: the
/// part of a real device's system, which does not share its cores with the pages it serves.
/// Renderers fork from Chromium's zygote, started before, so the pages keep their priority.
export function realTime(others = []) {
  try {
    const ps = execFileSync('ps', ['-eo', 'pid=,ppid=,args='], { encoding: 'utf8' });
    const rows = ps.split('\n').map((l) => l.trim().match(/^(\d+)\s+(\d+)\s+(.*)$/)).filter(Boolean);
    const browser = rows.find(([, , ppid, args]) => Number(ppid) === process.pid && /chrom/.test(args));
    if (!browser) return false;
    for (const pid of [browser[1], String(process.pid), ...others.map(String)]) {
      execFileSync('chrt', ['-f', '-a', '-p', '10', pid], { stdio: 'ignore' });
    }
    return true;
  } catch {
    return false;
  }
}

/// What clock a page runs on: whether it is a secure context and cross-origin isolated, and
/// the least step `performance.now()` takes (µs): 5 isolated, Chromium's 100 elsewhere (a LAN's
/// address is no secure context, so COOP/COEP cannot isolate it).
export async function pageClock(page) {
  return page.evaluate(() => {
    let least = Infinity;
    let last = performance.now();
    for (let i = 0; i < 200_000; i++) {
      const t = performance.now();
      if (t !== last) least = Math.min(least, t - last);
      last = t;
    }
    return { secure: isSecureContext, isolated: crossOriginIsolated, step_us: Math.round(least * 1000) };
  });
}

/// A coarser clock for the page than Chromium gives it, as other browsers give a page served over
/// plain HTTP (`PAGE_CLOCK`): `floor-1ms`, each reading cut down to its millisecond (as WebKit,
/// so Safari on every iPhone, reduces it); `jitter-1ms`, rounded down or up at a threshold drawn
/// once for each millisecond (as Firefox and Chromium jitter theirs). Applied to
/// `performance.now()`, every event's `timeStamp` and the animation frames' times before the
/// page's scripts run; the instrument keeps the real clock (`performance.__bolideRealNow`). Says
/// which, or null when unset.
export async function emulatePageClock(context) {
  const mode = process.env.PAGE_CLOCK;
  if (!mode) return null;
  if (mode !== 'floor-1ms' && mode !== 'jitter-1ms') throw new Error(`PAGE_CLOCK=${mode}: floor-1ms or jitter-1ms`);
  await context.addInitScript((mode) => {
    const realNow = Performance.prototype.now;
    const threshold = (bucket) => { const h = Math.sin(bucket * 12.9898 + 78.233) * 43758.5453; return h - Math.floor(h); };
    const coarse = (t) => {
      const bucket = Math.floor(t);
      return mode === 'floor-1ms' || t - bucket < threshold(bucket) ? bucket : bucket + 1;
    };
    Object.defineProperty(Performance.prototype, '__bolideRealNow', { value: realNow });
    Performance.prototype.now = function now() { return coarse(realNow.call(this)); };
    const getter = (proto, name) => {
      const real = Object.getOwnPropertyDescriptor(proto, name).get;
      Object.defineProperty(proto, name, { configurable: true, get() { const v = real.call(this); return typeof v === 'number' ? coarse(v) : v; } });
    };
    getter(Event.prototype, 'timeStamp');
    getter(AnimationTimeline.prototype, 'currentTime');
    const raf = window.requestAnimationFrame;
    window.requestAnimationFrame = function requestAnimationFrame(f) { return raf.call(this, (t) => f(coarse(t))); };
  }, mode);
  return mode;
}

/// Waits until the page's title matches `pattern` (the page names its screen there).
export async function until(page, pattern, what, deadline) {
  while (!pattern.test(await page.title())) {
    if (Date.now() > deadline) throw new Error(`no ${what} in time (title: ${await page.title()})`);
    await page.waitForTimeout(100);
  }
}

/// How long `url` takes from the request to a start page that answers (its first frame run
/// and its title set), in ms on the page's own clock (0 is the navigation's start), in a
/// fresh browser context (nothing cached), closed afterwards. `openMs`: how long its tab is
/// open before the address is asked for (a guest opens a tab, then types or scans).
export async function startPageMs(browser, url, openMs = 0) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  if (openMs > 0) await page.waitForTimeout(openMs);
  await page.addInitScript(() => {
    new MutationObserver(() => {
      if (document.title === 'Bolide' && window.bolideAnswered === undefined) window.bolideAnswered = performance.now();
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.goto(url);
  await page.waitForFunction(() => window.bolideAnswered !== undefined, null, { polling: 'raf', timeout: 30_000 });
  const ms = await page.evaluate(() => window.bolideAnswered);
  await context.close();
  return Math.round(ms);
}

/// A Bolide turn played by keys as a quick person would: roll the dice (r), move the most
/// tiles the page allows (a digit, 9 down to 1), end the turn (e); `looked` runs once the
/// roll shows; `press` types a key (Playwright's keyboard unless said).
export async function playTurn(page, looked = async () => {}, press = (k) => page.keyboard.press(k)) {
  await press('r');
  await page.waitForTimeout(300);
  await looked();
  for (const k of '987654321') await press(k);
  await page.waitForTimeout(250);
  await press('e');
}

/// The nights `page` keeps in its browser (`localStorage`'s journals under bolide/replays/),
/// waited for until `deadline`: the table hands each laptop the night after its end.
export async function keptNights(page, deadline) {
  for (;;) {
    const kept = await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('bolide/replays/') && k.endsWith('.journal')));
    if (kept.length > 0) return kept;
    if (Date.now() > deadline) throw new Error(`the browser kept no night (its page's title: ${await page.title()})`);
    await page.waitForTimeout(200);
  }
}

/// Taps, as a finger would, what the page draws lowest on its screen in column `x` (a phone's
/// page puts the grab's pawns and the turn's buttons last): `up` pixels above its bottom edge.
/// Returns where it tapped, or null when nothing but the page's background is in that column.
export async function tapLowest(page, x, up) {
  const png = decodePng(await page.screenshot());
  const background = png.at(x, png.height - 1).join();
  for (let y = png.height - 2; y > 0; y -= 1) {
    if (png.at(x, y).join() !== background) {
      await page.touchscreen.tap(x, y - up);
      return y - up;
    }
  }
  return null;
}

/// What a page opened with `?labels` shows, by accessible label (web/src/labels.rs): its last
/// frame's widgets, `[{label, role, x, y, w, h, enabled}]` in CSS pixels.
export async function labels(page) {
  return page.evaluate(() => window.bolideLabels ?? []);
}

/// The widgets of `page` whose label matches `pattern`, enabled, top to bottom.
export async function byLabel(page, pattern) {
  return (await labels(page)).filter((n) => n.enabled && n.w > 0 && n.h > 0 && pattern.test(n.label))
    .sort((a, b) => a.y - b.y || a.x - b.x);
}

/// Taps with a finger (a click where `mouse` says so) the middle of `node` (from `byLabel`).
export async function tap(page, node, { mouse = false } = {}) {
  const [x, y] = [node.x + node.w / 2, node.y + node.h / 2];
  if (mouse) await page.mouse.click(x, y); else await page.touchscreen.tap(x, y);
}

/// Waits until `page` shows a widget labelled `pattern` (by `deadline`), and taps it.
export async function tapLabel(page, pattern, deadline, options) {
  for (;;) {
    const [node] = await byLabel(page, pattern);
    if (node) return tap(page, node, options);
    if (Date.now() > deadline) throw new Error(`nothing labelled ${pattern} on the page in time (title: ${await page.title()})`);
    await page.waitForTimeout(100);
  }
}

/// What a finger could not tap on `page` (`?labels`): an interactive widget that overlaps
/// another or runs off the page's side or bottom. Descriptions; none when each has a place of
/// its own.
export async function crowded(page) {
  const { width, height } = page.viewportSize();
  const roles = ['Button', 'CheckBox', 'TextInput', 'SpinButton', 'Slider', 'ComboBox', 'RadioButton', 'Link'];
  const taps = (await labels(page)).filter((n) => roles.includes(n.role) && n.w > 0 && n.h > 0);
  const name = (n) => `"${n.label || n.role}" (${Math.round(n.x)},${Math.round(n.y)} ${Math.round(n.w)}×${Math.round(n.h)})`;
  const problems = [];
  for (const [i, a] of taps.entries()) {
    if (a.x < -1 || a.x + a.w > width + 1) problems.push(`${name(a)} runs off the page's side`);
    if (a.y + a.h > height + 1) problems.push(`${name(a)} runs off the page's bottom`);
    for (const b of taps.slice(i + 1)) {
      const across = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
      const down = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (across > 2 && down > 2) problems.push(`${name(a)} overlaps ${name(b)}`);
    }
  }
  return problems;
}

/// This process's monotonic clock (CLOCK_MONOTONIC on Linux), in ns.
export const nowNs = () => process.hrtime.bigint();

/// Where the page's `performance.now()` sits on this process's monotonic clock: the offset
/// (ns) of the round trip that took least among `rounds` reads over the DevTools protocol,
/// and half that round trip, the offset's uncertainty. Both clocks are CLOCK_MONOTONIC on
/// Linux, so the offset holds for the page's life.
export async function lineUpClocks(cdp, rounds = 200) {
  let best = null;
  for (let i = 0; i < rounds; i++) {
    const sent = nowNs();
    const { result } = await cdp.send('Runtime.evaluate', { expression: '(performance.__bolideRealNow ?? performance.now).call(performance)', returnByValue: true });
    const back = nowNs();
    const rtt = back - sent;
    if (best === null || rtt < best.rtt) {
      best = { rtt, offsetNs: (sent + back) / 2n - BigInt(Math.round(result.value * 1e6)) };
    }
  }
  return { offsetNs: best.offsetNs, uncertaintyMs: Number(best.rtt) / 2e6 };
}

/// p-th percentile of numbers.
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.round((p / 100) * (s.length - 1)))];
}

/// The size of an error (p50, p99 of |error|) and its sign (median, extremes), in ms.
export function summary(xs) {
  if (xs.length === 0) return null;
  const r = (x) => Math.round(x * 1000) / 1000;
  const size = xs.map(Math.abs);
  return { p50: r(percentile(size, 50)), p99: r(percentile(size, 99)), median: r(percentile(xs, 50)),
    min: r(Math.min(...xs)), max: r(Math.max(...xs)) };
}

/** The host's flags for the page in `bundle`: a folder (`scripts/build-web.sh OUT`), or
 * `built-in` for the page built into the host (web/dist/). */
export function pageFlags(bundle) {
  return bundle === 'built-in' ? [] : ['--web-page', bundle];
}

/** The bytes the host must serve as `file` of the page in `bundle` (unpacked). */
export function pageFile(bundle, file) {
  if (bundle !== 'built-in') return readFileSync(join(bundle, file));
  if (file === 'index.html') return readFileSync('web/index.html');
  return gunzipSync(readFileSync(join('web/dist', `${file}.gz`)));
}
