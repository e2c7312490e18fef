// A ladder bot's page (/ladder/bots/NAME, from GET /api/ladder/bots/NAME): its status, its rating, the rating
// after each of its games drawn as a plot, its games (newest first) with their replays, and its results against
// each opponent.

import {el, fill} from "./dom.js";
import {
  botPath, fixed, gameTitle, houseTag, humanTime, replayPath, request, scrollingTable, signed,
} from "./ladder_common.js";

const SVG = "http://www.w3.org/2000/svg";
const PLOT = {height: 240, left: 44, right: 12, top: 12, bottom: 38};
const PLOT_WIDTH = {least: 300, most: 640};
const X_LABELS = 6;
const Y_TICKS = 4;

const area = document.getElementById("bot");
const title = document.querySelector("[data-testid=bot-title]");
const statusBadge = document.querySelector("[data-testid=bot-status]");

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  node.append(...children);
  return node;
}

/** Round tick values from at or below `low` to at or above `high`: steps of 1, 2 or 5 times a power of ten. */
function ticks(low, high) {
  const rough = (high - low) / Y_TICKS;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough);
  const first = Math.floor(low / step) * step;
  const count = Math.ceil((high - first) / step - 1e-9);
  return Array.from({length: count + 1}, (_, index) => Number((first + index * step).toPrecision(12)));
}

/** The rating (μ − 3σ) and μ after each game, as an inline SVG `plotWidth` wide (its labels keep their size on a
 * phone): one point per game, linked to its replay. */
function ratingPlot(history, plotWidth) {
  const values = history.flatMap((point) => [point.rating, point.mu]);
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 1) [low, high] = [low - 0.5, high + 0.5];
  const marks = ticks(low, high);
  [low, high] = [marks[0], marks.at(-1)];
  const width = plotWidth - PLOT.left - PLOT.right;
  const height = PLOT.height - PLOT.top - PLOT.bottom;
  const x = (index) => PLOT.left + (history.length === 1 ? width / 2 : (index * width) / (history.length - 1));
  const y = (value) => PLOT.top + ((high - value) / (high - low)) * height;
  const line = (key, kind) => svg("polyline", {class: `plot-line ${kind}`,
    points: history.map((point, index) => `${x(index).toFixed(1)},${y(point[key]).toFixed(1)}`).join(" ")});
  const every = Math.ceil(history.length / X_LABELS);
  const last = history.length - 1;
  const bottom = PLOT.top + height;
  return svg("svg", {class: "rating-plot", viewBox: `0 0 ${plotWidth} ${PLOT.height}`, role: "img",
    "aria-label": `rating after each of ${history.length} games`, "data-testid": "rating-plot"},
  ...marks.map((value) => svg("g", {class: "plot-grid"},
    svg("line", {x1: PLOT.left, x2: PLOT.left + width, y1: y(value), y2: y(value)}),
    svg("text", {x: PLOT.left - 6, y: y(value) + 4, "text-anchor": "end"}, fixed(value, 1)))),
  ...history.map((point, index) => ((index === last || (index % every === 0 && last - index > every / 2))
    ? svg("text", {class: "plot-label", x: x(index), y: bottom + 16, "text-anchor": "middle"}, String(index + 1))
    : null)).filter(Boolean),
  svg("text", {class: "plot-label", x: PLOT.left + width / 2, y: PLOT.height - 4, "text-anchor": "middle"}, "game"),
  svg("line", {class: "plot-axis", x1: PLOT.left, x2: PLOT.left + width, y1: bottom, y2: bottom}),
  svg("line", {class: "plot-axis", x1: PLOT.left, x2: PLOT.left, y1: PLOT.top, y2: bottom}),
  line("mu", "mu"),
  line("rating", "rating"),
  ...history.map((point, index) => svg("a", {href: replayPath(point.record_id)},
    svg("circle", {class: "plot-point", cx: x(index), cy: y(point.rating), r: 4, "data-testid": "rating-point"},
      svg("title", {}, `game ${index + 1}, ${humanTime(point.finished)}: rating ${fixed(point.rating)} ` +
        `(μ ${fixed(point.mu)}, σ ${fixed(point.sigma)})`)))));
}

/** The plot's width: about the width of its panel, as the page is laid out now. */
function fittingWidth() {
  const panel = area.clientWidth > 1100 ? area.clientWidth / 2 : area.clientWidth;
  return Math.round(Math.max(PLOT_WIDTH.least, Math.min(PLOT_WIDTH.most, panel - 40)));
}

function statusText(bot) {
  if (bot.status === "paused") {
    const until = bot.paused_until === null ? "until an admin resumes it"
      : `until ${new Date(bot.paused_until * 1000).toLocaleString()}`;
    return `Paused ${until}${bot.reason ? `: ${bot.reason}` : ""}`;
  }
  if (bot.status === "banned") return `Banned${bot.reason ? `: ${bot.reason}` : ""}`;
  return "Active: it may queue and play.";
}

function summary({bot, rating}) {
  return el("section", {class: "panel"},
    el("dl", {class: "info"},
      el("dt", {}, "Game"), el("dd", {}, gameTitle(bot.game)),
      el("dt", {}, "Registered"), el("dd", {}, humanTime(bot.created)),
      el("dt", {}, "Status"), el("dd", {dataset: {testid: "status-text"}}, statusText(bot))),
    el("h2", {class: "section-title"}, "Rating"),
    rating ? scrollingTable("rating", [["Rating"], ["μ"], ["σ"], ["Games"], ["Won"], ["Mean score"]],
      [[[fixed(rating.rating), fixed(rating.mu), fixed(rating.sigma), String(rating.games), String(rating.wins),
        fixed(rating.mean_payoff)]]])
      : el("p", {class: "empty"}, "No rated game yet: connect the bot to the ladder to play."));
}

/** The games, newest first: when, the bot's payoff, the replay, its seat and who sat in each seat (it in bold). */
function gamesTable(games) {
  const seats = (game) => game.seats.map((who, seat) => [seat > 0 ? " " : null, el("span", {class: "seat-entry"},
    seat === game.seat ? el("strong", {}, who) : who, seat < game.seats.length - 1 ? " ·" : null)]);
  return scrollingTable("games", [["Finished", "text"], ["Payoff"], ["Replay", "text"], ["Seat"], ["Seats", "text"]],
    games.map((game) => [[humanTime(game.finished, true),
      el("span", {class: game.payoff > 0 ? "win" : game.payoff < 0 ? "loss" : null}, signed(game.payoff)),
      el("a", {class: "button small", href: replayPath(game.record_id), dataset: {testid: "replay-link"}}, "Replay"),
      String(game.seat), seats(game)], {dataset: {testid: "game", record: game.record_id}}]));
}

function opponentsTable(opponents) {
  return scrollingTable("opponents", [["Opponent", "text"], ["Games"], ["Won"], ["Mean score"]],
    opponents.map((opponent) => [[
      opponent.house ? [opponent.name, " ", houseTag()] : el("a", {href: botPath(opponent.name)}, opponent.name),
      String(opponent.games), String(opponent.won), fixed(opponent.mean_payoff)],
    {class: opponent.house ? "house" : null, dataset: {testid: "opponent", name: opponent.name}}]));
}

function render(page) {
  const {bot, history, games, opponents} = page;
  document.title = `paiju arena: ${bot.name}`;
  title.textContent = bot.name;
  statusBadge.textContent = bot.status;
  statusBadge.className = `status status-${bot.status}`;
  statusBadge.hidden = false;
  fill(area, el("div", {class: "bot-grid"},
    summary(page),
    el("section", {class: "panel"}, el("h2", {}, "Rating after each game"),
      history.length ? [ratingPlot(history, fittingWidth()), el("p", {class: "plot-legend"},
        el("span", {class: "legend rating"}, "rating (μ − 3σ)"), el("span", {class: "legend mu"}, "μ"))]
        : el("p", {class: "empty"}, "No game yet.")),
    el("section", {class: "panel wide"}, el("h2", {}, `Games (${games.length}, newest first)`),
      games.length ? gamesTable(games) : el("p", {class: "empty"}, "No game yet.")),
    el("section", {class: "panel"}, el("h2", {}, "Against each opponent"),
      el("p", {class: "scale"}, "Won: games in which the bot scored more than that opponent. Partners are not " +
        "opponents. Mean score: the bot's own."),
      opponents.length ? opponentsTable(opponents) : el("p", {class: "empty"}, "No opponent yet."))));
}

async function load() {
  const name = decodeURIComponent(location.pathname.split("/").filter(Boolean)[2] || "");
  title.textContent = name || "Ladder bot";
  try {
    render(await request("GET", `/api/ladder/bots/${encodeURIComponent(name)}`));
  } catch (failure) {
    const text = failure.status === 404 ? `No such bot: no ladder bot is named “${name}”.`
      : `The bot's page could not be loaded: ${failure.message}`;
    fill(area, el("section", {class: "panel"}, el("p", {class: "message error", dataset: {testid: "bot-error"}}, text),
      el("a", {class: "button", href: "/ladder"}, "See the ladder")));
  }
}

load();
