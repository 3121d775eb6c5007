// The other two games from a browser, as a person would play them: `bolide-host serve --game
// GAME` with two bots serves the page; a 1280×800 page joins and plays by keys, following the
// page's title, while a phone (390×844, touch) and a TV-sized page (1920×1080) watch the same
// table. 1000 Bornes: one hand
// (1 to 7 pick a card, Enter plays it where it can only go, D discards the first) with every
// Coup-Fourré window answered by Space — at least one must come and be called. Entenrallye: the
// first turn of the browser's player (1 takes the first action offered, until the turn passes).
// Screenshots of the three pages go to OUT. With WHOLE=1 (by hand: about a quarter of an hour
// here) the browser plays a whole 1000 Bornes game (to 5000 points, hand after hand) and a
// whole Entenrallye year instead.
//
//   [WHOLE=1] node scripts/browser/games.mjs HOST_BINARY BUNDLE_DIR|built-in OUT
//
// Bounded: every wait has a deadline, each game 4 minutes (WHOLE: 25).

import { startHost, launchChromium, until as untilTitle, pageFlags, keptNights } from './lib.mjs';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [hostBin, bundle, out] = process.argv.slice(2);
if (!hostBin || !bundle || !out) {
  console.error('usage: node scripts/browser/games.mjs HOST_BINARY BUNDLE_DIR OUT');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const whole = process.env.WHOLE === '1';
const GAME_MS = (whole ? 25 : 4) * 60_000;
setTimeout(() => { console.error('browser games: out of time'); process.exit(1); }, 2 * GAME_MS + 60_000).unref();

const browser = await launchChromium();

/// A table of `game` with two bots; the desk seated as Anne, a phone and a TV watching.
async function sit(game, args) {
  const deadline = Date.now() + GAME_MS;
  const until = (page, pattern, what) => untilTitle(page, pattern, what, deadline);
  const { host, info, log } = await startHost(hostBin, ['--game', game, '--bots', '2', '--bot-delay-ms', '200',
    ...pageFlags(bundle), ...args]);
  // The host's log beside the screenshots, whatever ends the run.
  process.on('exit', () => writeFileSync(join(out, `host-${game}.log`), log()));
  const url = info.web[0], word = info.code.split('-')[0];
  const desk = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await desk.goto(`${url}/#${word}`);
  await until(desk, /^Bolide$/, `${game}: start page`);
  await desk.mouse.click(210, 125);
  await desk.keyboard.type('Anne');
  await desk.mouse.click(105, 256); // Join this table
  await until(desk, /lobby/, `${game}: lobby`);
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await phone.goto(`${url}/#${word}`);
  await until(phone, /^Bolide$/, `${game}: phone start page`);
  await phone.waitForTimeout(300);
  await phone.touchscreen.tap(105, 366); // Watch this table
  await until(phone, /lobby/, `${game}: phone lobby`);
  // A TV-sized browser watching too: the whole table on one screen.
  const tv = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await tv.goto(`${url}/#${word}`);
  await until(tv, /^Bolide$/, `${game}: TV start page`);
  await tv.waitForTimeout(300);
  await tv.mouse.click(293, 256); // Watch this table
  await until(tv, /lobby/, `${game}: TV lobby`);
  await desk.waitForTimeout(500);
  await desk.screenshot({ path: join(out, `browser-${game}-lobby.png`) });
  await desk.mouse.click(320, 220); // Ready
  return { host, desk, phone, until, deadline, shot: async (name) => {
    await desk.screenshot({ path: join(out, `browser-${game}-${name}.png`) });
    await phone.screenshot({ path: join(out, `browser-phone-${game}-${name}.png`) });
    await tv.screenshot({ path: join(out, `browser-tv-${game}-${name}.png`) });
  } };
}

/// The desk's 1000 Bornes turn as a player who tries each card in turn: the first card of the
/// hand (1 to 7) that Enter can play where it can only go is played, else the first is
/// discarded. A desk that rolls and runs leads, and the bots' attacks go to the leader: the
/// Coup-Fourré windows this run must answer come to it (a desk that only discarded the first
/// card fell behind, and a whole hand once passed with no attack on it).
async function playATurn(desk) {
  for (const key of ['1', '2', '3', '4', '5', '6', '7']) {
    await desk.keyboard.press(key);
    await desk.keyboard.press('Enter');
    await desk.waitForTimeout(120);
    if (!/your turn/.test(await desk.title())) return;
  }
  await desk.keyboard.press('1');
  await desk.keyboard.press('d');
}

// 1000 Bornes: one hand (WHOLE: a game to 5000, the host dealing hand after hand), every
// Coup-Fourré window called.
{
  const started = Date.now();
  const { host, desk, shot, deadline } = await sit('mille-bornes', whole ? [] : ['--option', 'mode={"Hands":{"hands":1}}']);
  let calls = 0, turns = 0, inWindow = false;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`1000 Bornes: the hand did not end in time (title: ${await desk.title()})`);
    const t = await desk.title();
    const window = /Coup-Fourré\?/.test(t);
    if (window && !inWindow) {
      if (calls === 0) await shot('coup-fourre');
      await desk.keyboard.press('Space');
      calls += 1;
    }
    inWindow = window;
    if (window) {
      await desk.waitForTimeout(150);
      continue;
    } else if (/your turn/.test(t)) {
      if (turns === 0) { await desk.waitForTimeout(300); await shot('turn'); }
      turns += 1;
      await playATurn(desk);
    } else if (/game over/.test(t)) {
      await desk.waitForTimeout(1000);
      await shot('score');
      await keptNights(desk, deadline);
      break;
    }
    await desk.waitForTimeout(150);
  }
  if (calls === 0) throw new Error('1000 Bornes: no Coup-Fourré window came to the browser in a whole hand');
  console.log(`browser games: 1000 Bornes played to the end of its ${whole ? 'game' : 'hand'} from a browser (${turns} turns, ${calls} Coup-Fourré windows called, ${Math.round((Date.now() - started) / 1000)} s)`);
  host.kill('SIGINT');
  await desk.close();
}

// Entenrallye: the browser's first turn (WHOLE: every turn of the year).
{
  const started = Date.now();
  const { host, desk, shot, deadline } = await sit('entenrallye', []);
  for (;;) {
    if (Date.now() > deadline) throw new Error(`Entenrallye: no turn came in time (title: ${await desk.title()})`);
    if (/your turn/.test(await desk.title())) break;
    await desk.waitForTimeout(150);
  }
  await desk.waitForTimeout(300);
  await shot('turn');
  // 1 takes the first action the turn offers (the roll, then what the die buys, then the end).
  let presses = 0;
  for (;;) {
    if (Date.now() > deadline) throw new Error(`Entenrallye: the turn did not pass (title: ${await desk.title()})`);
    if (!/your turn/.test(await desk.title())) break;
    await desk.keyboard.press('1');
    presses += 1;
    if (presses === 1) { await desk.waitForTimeout(500); await shot('rolled'); }
    await desk.waitForTimeout(250);
  }
  await desk.waitForTimeout(300);
  await shot('after');
  let turns = 1;
  for (let mine = false; whole;) {
    if (Date.now() > deadline) throw new Error(`Entenrallye: the year did not end in time (title: ${await desk.title()})`);
    const t = await desk.title();
    if (/year over/.test(t)) {
      await desk.waitForTimeout(1000);
      await shot('over');
      await keptNights(desk, deadline);
      break;
    }
    if (/your turn/.test(t)) {
      if (!mine) turns += 1;
      await desk.keyboard.press('1');
      presses += 1;
    }
    mine = /your turn/.test(t);
    await desk.waitForTimeout(200);
  }
  console.log(`browser games: ${whole ? `an Entenrallye year (${turns} turns)` : 'an Entenrallye turn'} played from a browser (${presses} actions, ${Math.round((Date.now() - started) / 1000)} s)`);
  host.kill('SIGINT');
}

await browser.close();
process.exit(0);
