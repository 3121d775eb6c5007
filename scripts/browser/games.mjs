// The other two games from a browser, as people would play them: `bolide-host serve --game
// GAME` with a bot serves the page; a 1280×800 page joins and plays by keys, following the
// page's title, a phone (390×844) joins and plays by touch, tapping its widgets where their
// labels say they are (`?labels`), and a TV-sized page (1920×1080) watches. On the phone every
// widget a finger taps must have a place of its own (lobby, turn, Coup-Fourré window).
// 1000 Bornes: one hand (the desk: 1 to 7 pick a card, Enter plays it where it can only go, D
// discards the first; the phone taps card after card until one offers a play) with every
// Coup-Fourré window answered by Space or its button — at least one must come to the desk and
// be called. Entenrallye: the first turn of each (1, or the first action's button, until the
// turn passes). Screenshots of the three pages go to OUT. With WHOLE=1 (by hand: about a
// quarter of an hour here) the browsers play a whole 1000 Bornes game (to 5000 points, hand
// after hand) and a whole Entenrallye year instead; ONLY=entenrallye skips 1000 Bornes.
//
//   [WHOLE=1] node scripts/browser/games.mjs HOST_BINARY BUNDLE_DIR|built-in OUT
//
// Bounded: every wait has a deadline, each game 4 minutes (WHOLE: 25).

import { startHost, launchChromium, until as untilTitle, pageFlags, keptNights, labels, byLabel, tap, tapLabel, crowded } from './lib.mjs';
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

/// A table of `game` with a bot; the desk seated as Anne (by keys), a phone seated as Phil (by
/// touch, finding its widgets by their labels: `?labels`), a TV watching.
async function sit(game, args) {
  const deadline = Date.now() + GAME_MS;
  const until = (page, pattern, what) => untilTitle(page, pattern, what, deadline);
  const { host, info, log } = await startHost(hostBin, ['--game', game, '--bots', '1', '--bot-delay-ms', '200',
    ...pageFlags(bundle), ...args]);
  // The host's log beside the screenshots, whatever ends the run.
  process.on('exit', () => writeFileSync(join(out, `host-${game}.log`), log()));
  const url = info.web[0], word = info.code.split('-')[0];
  const desk = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await desk.goto(`${url}/?labels#${word}`);
  await until(desk, /^Bolide$/, `${game}: start page`);
  await desk.mouse.click(210, 125);
  await desk.keyboard.type('Anne');
  await desk.mouse.click(105, 256); // Join this table
  await until(desk, /lobby/, `${game}: lobby`);
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await phone.goto(`${url}/?labels#${word}`);
  await until(phone, /^Bolide$/, `${game}: phone start page`);
  await phone.waitForTimeout(300);
  const [name] = (await labels(phone)).filter((n) => n.role === 'TextInput').sort((a, b) => a.y - b.y);
  if (!name) throw new Error(`${game}: the phone's start page has no name to type`);
  await tap(phone, name);
  await phone.keyboard.type('Phil');
  await tapLabel(phone, /^Join this table$/, deadline);
  await until(phone, /lobby/, `${game}: phone lobby`);
  // A TV-sized browser watching: the whole table on one screen.
  const tv = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  await tv.goto(`${url}/#${word}`);
  await until(tv, /^Bolide$/, `${game}: TV start page`);
  await tv.waitForTimeout(300);
  await tv.mouse.click(293, 256); // Watch this table
  await until(tv, /lobby/, `${game}: TV lobby`);
  await desk.waitForTimeout(500);
  await roomy(phone, `${game}'s lobby`);
  const shot = async (name) => {
    await desk.screenshot({ path: join(out, `browser-${game}-${name}.png`) });
    await phone.screenshot({ path: join(out, `browser-phone-${game}-${name}.png`) });
    await tv.screenshot({ path: join(out, `browser-tv-${game}-${name}.png`) });
  };
  await shot('lobby');
  await tapLabel(phone, /\(ready\)$/, deadline);
  await tapLabel(desk, /\(ready\)$/, deadline, { mouse: true });
  return { host, desk, phone, until, deadline, shot };
}

/// Fails unless every widget a finger taps on `phone` has a place of its own (lib.mjs crowded).
async function roomy(phone, what) {
  const problems = await crowded(phone);
  if (problems.length) throw new Error(`${what} on a phone: ${problems.join('; ')}`);
}

/// The phone's 1000 Bornes turn, by touch: each card of its hand tapped in turn until one
/// offers a play (its only target, or the first side it may go on), else the first discarded.
/// Whether it tapped a play or a discard.
async function phoneTurn(phone) {
  const shown = await labels(phone);
  const turn = shown.find((n) => n.label === 'Your turn');
  if (!turn) return false;
  const hand = shown.filter((n) => n.role === 'Button' && n.y > turn.y).sort((a, b) => a.y - b.y || a.x - b.x);
  for (const card of hand) {
    await tap(phone, card);
    await phone.waitForTimeout(200);
    await roomy(phone, `1000 Bornes with ${card.label} picked`);
    const [play] = await byLabel(phone, /^(Play \(Enter\)|On )/);
    if (play) { await tap(phone, play); return true; }
  }
  if (!hand[0]) return false;
  await tap(phone, hand[0]);
  await phone.waitForTimeout(200);
  const [discard] = await byLabel(phone, /^Discard \(D\)$/);
  if (discard) await tap(phone, discard);
  return Boolean(discard);
}

/// The phone at a 1000 Bornes table until `over()`: its turns and its Coup-Fourré windows,
/// by touch.
async function phonePlaysMilleBornes(phone, deadline, over) {
  let turns = 0, calls = 0, plays = 0, inWindow = false, mine = false;
  const ended = async () => over() || /game over/.test(await phone.title());
  while (!(await ended()) && Date.now() < deadline) {
    const t = await phone.title();
    const window = /Coup-Fourré\?/.test(t);
    if (window && !inWindow) {
      if (calls === 0) await roomy(phone, 'a Coup-Fourré window');
      await tapLabel(phone, /^Coup-Fourré ! /, deadline);
      calls += 1;
    }
    inWindow = window;
    const now = /your turn/.test(t);
    if (now && !mine) {
      if (turns === 0) await roomy(phone, "1000 Bornes's turn");
      turns += 1;
    }
    mine = now;
    if (now) {
      if (await phoneTurn(phone)) plays += 1;
      await phone.waitForTimeout(300);
    }
    await phone.waitForTimeout(150);
  }
  return { turns, calls, plays };
}

/// The Entenrallye actions a turn offers, as their buttons say.
const ENTE_ACTIONS = /^(Roll the die|Drive |Fit |Steal a part|Give |Keep |End the turn)/;

/// The phone at an Entenrallye table until `over()`: each of its turns, the first action
/// offered tapped until the turn passes; counted in `played` ({turns, passed, actions}).
async function phonePlaysEntenrallye(phone, deadline, over, played) {
  let mine = false;
  while (!over() && Date.now() < deadline) {
    const now = /your turn/.test(await phone.title());
    if (now && !mine) played.turns += 1;
    if (!now && mine) played.passed += 1;
    mine = now;
    const [action] = now ? await byLabel(phone, ENTE_ACTIONS) : [];
    if (action) {
      if (played.actions === 0) await roomy(phone, "Entenrallye's turn");
      await tap(phone, action);
      played.actions += 1;
      await phone.waitForTimeout(300);
    }
    await phone.waitForTimeout(150);
  }
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
if (process.env.ONLY !== 'entenrallye') {
  const started = Date.now();
  const { host, desk, phone, shot, deadline } = await sit('mille-bornes', whole ? [] : ['--option', 'mode={"Hands":{"hands":1}}']);
  let calls = 0, turns = 0, inWindow = false, over = false;
  const phonePlayed = phonePlaysMilleBornes(phone, deadline, () => over);
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
  over = true;
  const byTouch = await phonePlayed;
  if (calls === 0) throw new Error('1000 Bornes: no Coup-Fourré window came to the browser in a whole hand');
  if (byTouch.plays === 0) throw new Error('1000 Bornes: the phone played no card by touch');
  console.log(`browser games: 1000 Bornes played to the end of its ${whole ? 'game' : 'hand'} from a browser (${turns} turns, ${calls} Coup-Fourré windows called, ${Math.round((Date.now() - started) / 1000)} s); the phone by touch: ${byTouch.turns} turns, ${byTouch.plays} cards played or discarded, ${byTouch.calls} windows called`);
  host.kill('SIGINT');
  await desk.close();
}

// Entenrallye: the browser's first turn (WHOLE: every turn of the year).
{
  const started = Date.now();
  const { host, desk, phone, shot, deadline } = await sit('entenrallye', []);
  let over = false;
  const byTouch = { turns: 0, passed: 0, actions: 0 };
  const phonePlayed = phonePlaysEntenrallye(phone, deadline, () => over, byTouch);
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
  // The phone's turn too, by touch (it may have come before the desk's).
  while (!whole && byTouch.passed === 0) {
    if (Date.now() > deadline) throw new Error(`Entenrallye: the phone's turn did not pass (its title: ${await phone.title()})`);
    await desk.waitForTimeout(200);
  }
  over = true;
  await phonePlayed;
  if (byTouch.actions === 0) throw new Error('Entenrallye: the phone took no action by touch');
  console.log(`browser games: ${whole ? `an Entenrallye year (${turns} turns)` : 'an Entenrallye turn'} played from a browser (${presses} actions, ${Math.round((Date.now() - started) / 1000)} s); the phone by touch: ${byTouch.passed} turns, ${byTouch.actions} actions`);
  host.kill('SIGINT');
}

await browser.close();
process.exit(0);
