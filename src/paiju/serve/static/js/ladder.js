// The ladder's page: how to join, the registration form (the key is shown once), and per game the queue, the
// house bots and the standings (GET /api/ladder), refreshed every REFRESH_MS and on the Refresh button.

import {el, fill} from "./dom.js";
import {botPath, fixed, gameTitle, houseTag, request, scrollingTable} from "./ladder_common.js";

const REFRESH_MS = 5000;
const COLUMNS = [["#"], ["Name", "text"], ["Rating"], ["μ"], ["σ"], ["Games"], ["Won"], ["Mean score"],
  ["Status", "text"]];

const byTestId = (testid) => document.querySelector(`[data-testid="${testid}"]`);
const gamesArea = document.getElementById("games");
const scheme = location.protocol === "https:" ? "wss:" : "ws:";
const ladderUrl = `${scheme}//${location.host}/ws/ladder`;
const command = (key) => `paiju connect --ladder ${ladderUrl} --key ${key} --agent AGENT`;

for (const node of document.querySelectorAll(".ladder-url")) node.textContent = ladderUrl;

function nameCell(row) {
  if (row.house) return [el("span", {class: "bot-name"}, row.name), " ", houseTag()];
  return el("a", {class: "bot-name", href: botPath(row.name)}, row.name);
}

function standingRow(row, index) {
  const cells = [String(index + 1), nameCell(row), fixed(row.rating), fixed(row.mu), fixed(row.sigma),
    String(row.games), String(row.wins), fixed(row.mean_payoff),
    el("span", {class: `status status-${row.status}`}, row.status)];
  return [cells, {class: row.house ? "house" : null, dataset: {testid: "standing", name: row.name}}];
}

function gameSection(game, {waiting, playing, house, standings}) {
  return el("section", {class: "panel ladder-game", dataset: {testid: "ladder-game", game}},
    el("h2", {}, gameTitle(game)),
    el("p", {class: "queue", dataset: {testid: "queue"}},
      `Waiting in the queue: ${waiting} · playing: ${playing}`),
    el("p", {class: "house-bots", dataset: {testid: "house-bots"}},
      house.length ? `House bots: ${house.join(", ")}` : "No house bots: bots wait for each other."),
    standings.length ? scrollingTable("standings", COLUMNS, standings.map(standingRow))
      : el("p", {class: "empty"}, "No rated game yet."));
}

let shown = null;

async function refresh() {
  const error = byTestId("ladder-error");
  try {
    const {games} = await request("GET", "/api/ladder");
    const text = JSON.stringify(games);
    if (text !== shown) fill(gamesArea, Object.entries(games).map(([game, info]) => gameSection(game, info)));
    shown = text;
    error.textContent = "";
    byTestId("updated").textContent = `Updated ${new Date().toLocaleTimeString()}`;
  } catch (failure) {
    error.textContent = `The ladder could not be loaded: ${failure.message}`;
  }
}

async function register(event) {
  event.preventDefault();
  const form = event.target;
  const button = byTestId("register");
  const error = byTestId("register-error");
  const keyBox = byTestId("key-box");
  error.textContent = "";
  keyBox.hidden = true;
  button.disabled = true;
  const body = Object.fromEntries(["name", "owner", "game"].map((field) => [field, form.elements[field].value.trim()]));
  try {
    const {bot, key} = await request("POST", "/api/bots", body);
    const link = byTestId("new-bot-link");
    link.textContent = bot.name;
    link.href = botPath(bot.name);
    byTestId("bot-key").textContent = key;
    byTestId("new-bot-command").textContent = command(key);
    keyBox.hidden = false;
    form.elements.name.value = "";
  } catch (failure) {
    error.textContent = `Not registered: ${failure.message}`;
  } finally {
    button.disabled = false;
  }
}

byTestId("register-form").addEventListener("submit", register);
byTestId("refresh").addEventListener("click", refresh);
refresh();
setInterval(() => { if (!document.hidden) refresh(); }, REFRESH_MS);
