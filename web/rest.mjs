// How much a still Tabla costs in the browser: headless Chromium at 360×640 (density 1) opens the
// web build (web/dist, served on 127.0.0.1), and the CPU time of all of the browser's processes is
// read from /proc over 20 s while nothing happens, on
//   - the first screen of a first visit (who is playing?), then the child's map and the menu,
//   - a Knight Hunt game against the Robot once the Robot's move is played (`?game=knight_hunt&color=black`:
//     the Robot plays White, moves first, and then waits for the child; no clock),
//   - and, to compare, a page that drew one canvas once.
// It prints `rest.<what> value` lines: the share of one core (CPU-seconds per second) and the
// frames the page asked for (requestAnimationFrame) meanwhile. Run by scripts/rest.sh.
import { launchChromium } from "./chromium.mjs";
import { readdirSync, readFileSync } from "node:fs";
import { serve, DIST } from "./serve.mjs";

const SECONDS = Number(process.env.TABLA_REST_SECONDS || 20);
const STARTUP_MS = 240_000;
const TICKS = 100; // clock ticks a second in /proc (Linux's USER_HZ)

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/// CPU ticks (user + system) of every process below `root` (not its own), by process id.
function ticksBelow(root) {
  const parent = new Map();
  const ticks = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // The fields after the command's name, which is in brackets and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parent.set(Number(name), Number(fields[1]));
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]));
    } catch {
      // A process that ended while it was read.
    }
  }
  const below = (pid) => {
    for (let at = parent.get(pid); at > 1; at = parent.get(at)) if (at === root) return true;
    return false;
  };
  return new Map([...ticks].filter(([pid]) => below(pid)));
}

/// The share of a core the browser used over `SECONDS`, and the frames the page asked for.
async function measure(page) {
  // The browser's processes are this script's children and theirs.
  const root = process.pid;
  const framesBefore = await page.evaluate(() => window.tablaFramesAsked);
  const before = ticksBelow(root);
  await sleep(SECONDS * 1000);
  const after = ticksBelow(root);
  const framesAfter = await page.evaluate(() => window.tablaFramesAsked);
  let spent = 0;
  for (const [pid, ticks] of after) spent += ticks - (before.get(pid) || 0);
  return { cores: spent / TICKS / SECONDS, frames: framesAfter - framesBefore };
}

/// Counts the page's calls to requestAnimationFrame.
function countFrames() {
  const ask = window.requestAnimationFrame.bind(window);
  window.tablaFramesAsked = 0;
  window.requestAnimationFrame = (callback) => {
    window.tablaFramesAsked += 1;
    return ask(callback);
  };
}

/// A page with its console lines kept.
async function opened(context, url) {
  const page = await context.newPage();
  const lines = [];
  page.on("console", (message) => lines.push(message.text()));
  await page.goto(url);
  return { page, lines };
}

/// Waits for a console line matching `pattern` (at most STARTUP_MS); returns its match.
async function line({ lines }, pattern, what) {
  const end = Date.now() + STARTUP_MS;
  for (;;) {
    for (const text of lines) {
      const found = text.match(pattern);
      if (found) return found;
    }
    if (Date.now() > end) throw new Error(`no ${what} within ${STARTUP_MS / 1000} s`);
    await sleep(100);
  }
}

/// Taps the middle of a tagged button (`tabla target <name> x y w h`, its latest place).
async function tap(shown, name) {
  const place = new RegExp(`tabla target ${name.replace(".", "\\.")} (\\S+) (\\S+) (\\S+) (\\S+)`);
  await line(shown, place, `button ${name}`);
  await sleep(1500);
  const latest = shown.lines.map((text) => text.match(place)).filter(Boolean).pop();
  const [x, y, w, h] = latest.slice(1).map(Number);
  await shown.page.touchscreen.tap(x + w / 2, y + h / 2);
}

async function main() {
  const server = await serve(DIST, 0);
  const url = `http://127.0.0.1:${server.address().port}/`;
  const browser = await launchChromium(1);
  const report = (name, { cores, frames }) => {
    console.log(`rest.browser_${name}_cores ${cores.toFixed(3)}`);
    console.log(`rest.browser_${name}_frames ${frames}`);
  };
  try {
    const context = await browser.newContext({
      viewport: { width: 360, height: 640 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
      locale: "en-GB",
    });
    await context.route(/^(?!http:\/\/127\.0\.0\.1:)/, (route) => route.abort());
    await context.addInitScript(countFrames);

    const blank = await context.newPage();
    await blank.setContent('<canvas id="c" width="360" height="640"></canvas>');
    await blank.evaluate(() => {
      const draw = document.getElementById("c").getContext("2d");
      draw.fillStyle = "#f4e9d8";
      draw.fillRect(0, 0, 360, 640);
    });
    await sleep(3000);
    report("canvas_drawn_once", await measure(blank));
    await blank.close();

    const first = await opened(context, url);
    await line(first, /tabla ready/, "first frame (tabla ready)");
    await sleep(3000);
    report("first_screen", await measure(first.page));
    // A tap on the first picture makes a child and opens its map, where the next stage breathes a
    // while; Free play opens the menu of games.
    await tap(first, "picture.0");
    await line(first, /tabla map /, "the child's map");
    await sleep(6000);
    report("map", await measure(first.page));
    await tap(first, "map.free_play");
    await line(first, /tabla target game\./, "the menu of games");
    await sleep(3000);
    report("menu", await measure(first.page));
    await first.page.close();

    const game = await opened(context, `${url}?game=knight_hunt&color=black`);
    await line(game, /tabla move knight_hunt white robot/, "the Robot's move");
    await sleep(3000);
    report("knight_hunt", await measure(game.page));
  } finally {
    await browser.close();
    server.close();
  }
}

await main();
