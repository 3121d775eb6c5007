// A guest at a table from a browser, as a person would be: `bolide-host serve` serves the
// page (`scripts/build-web.sh`) from memory; Debian's Chromium, headless, driven by Playwright
// over the DevTools protocol, opens the address with the code word in its fragment, joins,
// and plays a one-race championship to the podium against the host's two bots, by keyboard
// and mouse, following the page's title (which names its screen, as the window's does).
// Before the race, a phone-sized touch screen (390×844) taps a wrong word in, and is
// refused; then, set to French, it watches the race with the right word (its screens shot
// as it goes) — the page speaks the browser's language. After the podium the night is kept in
// the browser and replays from Past nights. Then a phone races at a table of its own by touch
// alone, to the podium. And the page's bytes are the bundle's.
//
//   node scripts/browser/game.mjs HOST_BINARY BUNDLE_DIR|built-in SCREENSHOT_DIR
//
// Bounded: every wait has a deadline, the whole run 9 minutes.

import { startHost, launchChromium, until as untilTitle, playTurn, pageFlags, pageFile, keptNights, tapLowest, startPageMs, byLabel, tap, crowded } from './lib.mjs';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [hostBin, bundle, out] = process.argv.slice(2);
if (!hostBin || !bundle || !out) {
  console.error('usage: node scripts/browser/game.mjs HOST_BINARY BUNDLE_DIR SCREENSHOT_DIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const deadline = Date.now() + 5 * 60_000;
setTimeout(() => { console.error('browser game: out of time'); process.exit(1); }, 9 * 60_000).unref();

// The host: one race, two bots, a drawn code word, the page from BUNDLE_DIR (or its own).
const { host, info, log } = await startHost(hostBin, ['--bots', '2', '--races', '1', '--bot-delay-ms', '300',
  '--lift-delay-ms', '800', ...pageFlags(bundle)]);
const url = info.web[0];
const word = info.code.split('-')[0];
// The host's log beside the screenshots, whatever ends the run.
process.on('exit', () => writeFileSync(join(out, 'host.log'), log()));
console.log(`browser game: the host serves ${url}, word ${word}`);

// The page's bytes are the bundle's, gzipped or not.
for (const file of ['index.html', 'bolide_web.js', 'bolide_web_bg.wasm']) {
  const plain = Buffer.from(await (await fetch(`${url}/${file}`, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer());
  const want = pageFile(bundle, file);
  if (!plain.equals(want)) throw new Error(`${file}: the page's bytes are not the bundle's`);
}
{
  const res = await fetch(`${url}/bolide_web_bg.wasm`, { headers: { 'accept-encoding': 'gzip' } });
  console.log(`browser game: the wasm crosses the network as ${res.headers.get('content-length')} bytes (${res.headers.get('content-encoding') ?? 'plain'})`);
}

const browser = await launchChromium();
const until = (page, pattern, what) => untilTitle(page, pattern, what, deadline);

// From the request to a start page that answers: the first frame run and the title set; the
// first load in a browser just started (its GPU process drawing its first WebGL), then three.
const answered = [];
for (let i = 0; i < 4; i++) answered.push(await startPageMs(browser, `${url}/#${word}`));
console.log(`browser game: the start page answered ${answered.join(', ')} ms after the request (the first in a browser just started)`);

const desk = await browser.newPage({ viewport: { width: 1280, height: 800 } });
// Each frame's CPU time (logic, tessellation, the GL calls; SwiftShader rasterises in the
// GPU process), kept while the race runs.
const frameUs = [];
let racing = false;
desk.on('console', (m) => {
  const us = m.text().match(/bolide::frame: .*cpu_us=(\d+)/);
  if (us && racing) frameUs.push(Number(us[1]));
});
await desk.goto(`${url}/?log=bolide::frame#${word}`);
await until(desk, /^Bolide$/, 'start page');
await desk.screenshot({ path: join(out, 'browser-start.png') });
await desk.mouse.click(210, 125);
await desk.keyboard.type('Anne');
await desk.mouse.click(105, 256);
await until(desk, /lobby/, 'lobby');
await desk.waitForTimeout(500);
await desk.screenshot({ path: join(out, 'browser-lobby.png') });
// A phone: the start page, and a wrong word refused (the host counts the guess).
const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
await phone.goto(`${url}/#WRONGWORD`);
await until(phone, /^Bolide$/, 'phone start page');
await phone.waitForTimeout(500);
await phone.screenshot({ path: join(out, 'browser-phone-start.png') });
const failedBefore = (log().match(/a try at the room code failed/g) ?? []).length;
await phone.touchscreen.tap(105, 315);
await phone.waitForTimeout(3000);
await phone.screenshot({ path: join(out, 'browser-phone-refused.png') });
const failed = (log().match(/a try at the room code failed/g) ?? []).length - failedBefore;
if (failed !== 1) throw new Error(`the host counted ${failed} failed tries for one wrong word`);
console.log('browser game: a wrong word tapped on a phone is refused, and the host counts the try');
// A page that cannot open the table says why on the page, in the browser's language: opened
// by a name rather than the host's address (it joins by that address), or in a browser that
// cannot run its module (here: a module that is not one).
{
  const said = async (page, pattern, what) => {
    const p = page.locator('#trouble');
    await p.waitFor({ state: 'visible', timeout: 20_000 });
    const text = await p.textContent();
    if (!pattern.test(text)) throw new Error(`${what}: the page says "${text}"`);
  };
  const named = await browser.newPage({ viewport: { width: 390, height: 844 }, locale: 'fr-FR' });
  await named.goto(`${url.replace('127.0.0.1', 'localhost')}/#${word}`);
  await said(named, /^Ouvrez cette page par l'adresse qu'affiche l'écran de l'hôte .* pas par localhost:\d+\.$/, 'opened by a name');
  await named.screenshot({ path: join(out, 'browser-phone-by-name.png') });
  await named.close();
  const old = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await old.route('**/bolide_web_bg.wasm', (r) => r.fulfill({ status: 200, contentType: 'application/wasm', body: Buffer.from('not a module') }));
  await old.goto(`${url}/#${word}`);
  await said(old, /^This browser cannot open the table \(CompileError: .*\)\. Open the same address in a recent/, 'a module it cannot run');
  await old.close();
  console.log('browser game: a page opened by a name, or whose module cannot run, says why on the page');
}
// The phone, with the right word, watches the race (its screens are shot as it goes): a new
// page, as a fragment alone does not load the page again.
await phone.close();
const watcher = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, locale: 'fr-FR' });
await watcher.goto(`${url}/#${word}`);
await until(watcher, /^Bolide$/, 'phone start page');
// The page speaks the browser's language, and says so (`<html lang>`); the desk's is English.
const langs = [await watcher.evaluate(() => document.documentElement.lang), await desk.evaluate(() => document.documentElement.lang)];
if (langs.join() !== 'fr,en') throw new Error(`the pages speak ${langs.join(' and ')}, not fr and en`);
console.log('browser game: a phone set to French watches in French, the desk plays in English');
await watcher.waitForTimeout(300);
await watcher.touchscreen.tap(105, 366); // Watch this table
await until(watcher, /lobby/, 'phone lobby');
await desk.mouse.click(320, 220); // Ready
racing = true;

let shots = '';
while (true) {
  if (Date.now() > deadline) throw new Error(`the championship did not end in time (title: ${await desk.title()})`);
  const t = await desk.title();
  if (/grab!/.test(t)) {
    if (!shots.includes('grab')) {
      await desk.screenshot({ path: join(out, 'browser-grab.png') });
      await watcher.screenshot({ path: join(out, 'browser-phone-grab.png') });
      shots += ' grab';
    }
    await desk.keyboard.press('1'); await desk.keyboard.press('2'); await desk.keyboard.press('3');
  } else if (/your turn/.test(t)) {
    await playTurn(desk, async () => {
      if (!shots.includes('turn')) { await desk.screenshot({ path: join(out, 'browser-turn.png') }); shots += ' turn'; }
    });
  } else if (/Échange/.test(t)) {
    await desk.keyboard.press('Escape');
  } else if (/podium/.test(t)) {
    // The last moves play out on the board before the podium shows.
    await desk.waitForTimeout(4000);
    await desk.screenshot({ path: join(out, 'browser-podium.png') });
    await watcher.screenshot({ path: join(out, 'browser-phone-podium.png') });
    console.log('browser game: played to the podium');
    const kept = await keptNights(desk, Date.now() + 15_000);
    console.log(`browser game: the night is kept in the browser (${kept.join(', ')})`);
    // The host closes its table after the podium: the page says the game is over (no
    // comeback), and from the start screen's Past nights the night replays in the browser.
    await until(desk, /podium/, 'podium');
    await desk.waitForTimeout(2500);
    await desk.mouse.click(84, 59); // Back to the start screen
    await until(desk, /^Bolide$/, 'start page after the night');
    await desk.waitForTimeout(500);
    await desk.screenshot({ path: join(out, 'browser-past-nights.png') });
    await desk.mouse.click(360, 410); // Past nights: Watch the replay
    await until(desk, /replay/, 'the night replayed');
    for (let i = 0; i < 12; i += 1) await desk.keyboard.press('ArrowRight');
    await desk.waitForTimeout(500);
    await desk.screenshot({ path: join(out, 'browser-replay.png') });
    console.log('browser game: the night replays in the browser from Past nights');
    const sorted = frameUs.sort((a, b) => a - b);
    const at = (p) => (sorted[Math.min(sorted.length - 1, Math.round((p / 100) * (sorted.length - 1)))] / 1000).toFixed(2);
    console.log(`browser game: the race screen's frames (${sorted.length}) took p50 ${at(50)} ms, p99 ${at(99)} ms of the page's CPU`);
    break;
  }
  await desk.waitForTimeout(200);
}

host.kill('SIGINT');

// A phone races by touch alone: a new table, the phone seated (its name typed, Join and Ready
// tapped), every grab tapped on the pawns (the lowest thing its screen draws), every turn
// tapped through by its buttons' labels (`?labels`: roll, the longest move the die allows,
// the end of the turn; the moves on its screen none over another or off its side), to the
// podium; under the first cup it calls Klaxon (B-4.6) and, peeking first, takes a pawn; every
// pilot holds an Échange each round (`--echange-drill`), and the phone swaps with the first
// pilot offered (B-4.7). The host's bots wait a minute before playing a turn for it, so a turn
// that passes within seconds passed by touch; the journal says which grabs the phone's touches
// won, with their reactions, and that its Klaxon and its Échanges were played.
{
  // A grab the phone has not tapped by then is the host's to play for it (its stand-in, at
  // that very time): such a pawn is no touch's.
  const GRAB_LIMIT_S = 8;
  const phoneDeadline = Date.now() + 4 * 60_000;
  // The host's bots at their own pace (700 ms: a quick person's hands). This script's hand
  // reads the page's title and screen before it taps; against bots sped up to 140–270 ms it
  // won no grab at all in some runs on a slow machine.
  // The cup stays down 1.5 s: time for this script to read the page and tap Klaxon.
  const { host: table, info: t, data, log: tableLog } = await startHost(hostBin, ['--bots', '2', '--races', '1', '--bot-delay-ms', '700',
    '--lift-delay-ms', '1500', '--turn-timeout-s', '60', '--grab-timeout-s', String(GRAB_LIMIT_S), '--echange-drill',
    ...pageFlags(bundle)]);
  process.on('exit', () => writeFileSync(join(out, 'phone-host.log'), tableLog()));
  const player = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await player.goto(`${t.web[0]}/?labels#${t.code.split('-')[0]}`);
  await untilTitle(player, /^Bolide$/, 'the playing phone\'s start page', phoneDeadline);
  await player.waitForTimeout(500);
  await player.touchscreen.tap(210, 140); // Your name
  await player.keyboard.type('Zoé');
  await player.touchscreen.tap(105, 315); // Join this table
  await untilTitle(player, /lobby/, 'the playing phone\'s lobby', phoneDeadline);
  await player.waitForTimeout(800);
  await player.touchscreen.tap(185, 220); // Put your hand flat on the table (ready)
  // Klaxon is tapped once a cup while the page offers it: one tap too late for its cup is
  // refused and the token kept (B-4.6), and the next cup offers it again.
  let turns = 0, slow = 0, grabs = 0, roomy = false, klaxon = false, thisCup = false, picked = 0, swaps = 0;
  for (;;) {
    if (Date.now() > phoneDeadline) throw new Error(`the phone's race did not end in time (title: ${await player.title()})`);
    const title = await player.title();
    if (!/the cup is down/.test(title)) thisCup = false;
    if (/grab!/.test(title)) {
      if (grabs === 0) await player.screenshot({ path: join(out, 'browser-phone-player-grab.png') });
      for (const x of [68, 195, 322]) await tapLowest(player, x, 25);
      grabs += 1;
      await player.waitForTimeout(300);
    } else if (/your turn/.test(title)) {
      turns += 1;
      const began = Date.now();
      for (let taps = 0; /your turn/.test(await player.title()) && Date.now() - began < 60_000; taps += 1) {
        const buttons = await byLabel(player, /^Roll the accelerator|^\d+ tiles?$|^End turn/);
        const next = buttons.find((b) => /^Roll/.test(b.label))
          ?? buttons.filter((b) => /tile/.test(b.label)).sort((a, b) => parseInt(b.label) - parseInt(a.label))[0]
          ?? buttons.find((b) => /^End turn/.test(b.label));
        if (next && /tile/.test(next.label) && !roomy) {
          const problems = await crowded(player);
          if (problems.length) throw new Error(`a Bolide turn's moves on a phone: ${problems.join('; ')}`);
          roomy = true;
        }
        if (next) await tap(player, next);
        await player.waitForTimeout(400);
        if (taps === 0 && !existsSync(join(out, 'browser-phone-player-turn.png'))) await player.screenshot({ path: join(out, 'browser-phone-player-turn.png') });
      }
      if (Date.now() - began > 8000) slow += 1;
    } else if (/the cup is down/.test(title) && !thisCup) {
      const [call] = await byLabel(player, /^Klaxon \(K\)$/);
      if (call) {
        await tap(player, call);
        klaxon = true;
        thisCup = true;
      }
    } else if (/— Klaxon$/.test(title)) {
      // The Klaxon pilots peek and choose in the order they called: the pawns are buttons
      // only on the screen of the one choosing.
      const [pawn] = await byLabel(player, /^Pawn \d/);
      if (pawn) {
        await tap(player, pawn);
        picked += 1;
        await player.waitForTimeout(300);
      }
    } else if (/Échange/.test(title)) {
      const [swap] = await byLabel(player, /^Échange with /);
      if (swap) {
        if (swaps === 0) await player.screenshot({ path: join(out, 'browser-phone-player-echange.png') });
        await tap(player, swap);
        swaps += 1;
        await player.waitForTimeout(300);
      }
    } else if (/podium/.test(title)) {
      break;
    }
    await player.waitForTimeout(150);
  }
  await player.waitForTimeout(3000);
  await player.screenshot({ path: join(out, 'browser-phone-player-podium.png') });
  table.kill('SIGINT');
  // What the phone's touches won, from the table's journal (seat 0 is the first to sit).
  const journal = readFileSync(join(data, 'championship.journal'), 'utf8');
  const judged = [...journal.matchAll(/"moment":"Grab","reactions":\[(\d+|null),/g)].filter((m) => m[1] !== 'null').map((m) => Number(m[1]) / 1000);
  const reactions = judged.filter((ms) => ms < GRAB_LIMIT_S * 1000);
  const standIn = judged.length - reactions.length;
  const pawns = (journal.match(/"seat":0,"action":\{"TakePawn"/g) ?? []).length - standIn;
  if (turns < 3 || slow > 0) throw new Error(`the phone played ${turns} turns, ${slow} of them not by touch within 8 s`);
  if (!roomy) throw new Error('the phone was never offered a move to tap');
  if (reactions.length === 0 || pawns <= 0) throw new Error(`the phone's touches won no grab (${reactions.length} reactions, ${pawns} pawns)`);
  // Its Klaxon and its Échanges, as the host played them (a refused one is not journaled).
  const klaxons = (journal.match(/"seat":0,"action":"Klaxon"/g) ?? []).length;
  const echanges = (journal.match(/"seat":0,"action":\{"Echange"/g) ?? []).length;
  if (klaxons !== 1 || picked < 1) throw new Error(`the phone's Klaxon: ${klaxons} played (tapped: ${klaxon}), ${picked} pawns picked after it`);
  if (echanges < 1 || swaps < 1) throw new Error(`the phone's Échanges: ${swaps} tapped, ${echanges} played`);
  console.log(`browser game: a phone raced to the podium by touch: ${turns} turns tapped through, ${grabs} grabs tapped, ${pawns} pawns taken by touch, its Klaxon called and its pawn picked, ${echanges} Échanges played (${swaps} tapped by their labels), reactions judged ${reactions.map((r) => r.toFixed(0)).join(', ')} ms${standIn ? `; ${standIn} grab(s) untapped in ${GRAB_LIMIT_S} s, played by the host for it` : ''}`);
}

await browser.close();
process.exit(0);
