// The lobby: create a table (you in seat 0, a built-in agent or an open place in every other seat; or bots in
// every seat, to watch them play), join or resume tables in progress, watch tables of bots alone as they play,
// and open finished games in the replay viewer.

import {api, tokens} from "./api.js";
import {el, fill} from "./dom.js";
import {GAMES, preferredAgent} from "./games/index.js";
import {rulesetLabel} from "./variants.js";

const REFRESH_MS = 3000;
/** Seconds the bots of a table created to be watched wait before each move, unless the form says otherwise. */
const WATCHED_BOT_DELAY = 1;

/** An input for one rule, typed after its default value; `read()` gives the value back in that type. */
function ruleField(game, key, value) {
  const choices = (GAMES[game].ruleChoices || {})[key];
  const labels = (GAMES[game].ruleLabels || {})[key] || {};
  const testid = `rule-${key}`;
  if (typeof value === "boolean") {
    const input = el("input", {type: "checkbox", dataset: {testid}});
    input.checked = value;
    return {input, read: () => input.checked};
  }
  if (Array.isArray(value)) {  // a list of numbers, written "2, 2, 2"
    const input = el("input", {type: "text", dataset: {testid}});
    input.value = value.join(", ");
    return {input, read: () => input.value.split(",").map((item) => item.trim()).filter(Boolean).map(Number)};
  }
  if (choices) {
    const input = el("select", {dataset: {testid}}, choices.map((choice) => el("option", {value: String(choice)},
      labels[String(choice)] || String(choice))));
    input.value = String(value);
    return {input, read: () => choices.find((choice) => String(choice) === input.value)};
  }
  const numeric = typeof value === "number" || value === null;
  const input = el("input", {type: numeric ? "number" : "text", placeholder: value === null ? "none" : "",
    dataset: {testid}});
  input.value = value === null ? "" : String(value);
  return {input, read: () => {
    if (input.value.trim() === "") return value === null ? null : value;
    return numeric ? Number(input.value) : input.value;
  }};
}

function humanTime(iso) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleString();
}

export class Lobby {
  constructor(root, gamesInfo) {
    this.gamesInfo = gamesInfo;
    this.games = Object.keys(gamesInfo).filter((name) => name in GAMES);
    this.gameSelect = el("select", {dataset: {testid: "game-select"}, onchange: () => this.renderVariants()},
      this.games.map((name) => el("option", {value: name}, GAMES[name].title)));
    this.variantSelect = el("select", {dataset: {testid: "variant"}, onchange: () => this.renderForm()});
    this.variantLabel = el("label", {}, "Variant ", this.variantSelect);
    this.seatArea = el("div", {class: "seat-choices"});
    this.rulesArea = el("div", {class: "rule-fields"});
    this.seedInput = el("input", {type: "number", placeholder: "random", dataset: {testid: "seed"}});
    this.delayInput = el("input", {type: "number", min: "0", max: "10", step: "0.1", placeholder: "default",
      dataset: {testid: "bot-delay"}});
    this.createButton = el("button", {type: "button", class: "primary", dataset: {testid: "create-table"},
      onclick: () => this.create()}, "Create the table and sit down");
    this.error = el("p", {class: "message error", dataset: {testid: "lobby-error"}, role: "alert"});
    this.tablesArea = el("div", {dataset: {testid: "tables"}});
    this.recordsArea = el("div", {dataset: {testid: "records"}});
    fill(root, el("section", {class: "lobby", dataset: {testid: "lobby"}},
      el("header", {class: "topbar"}, el("h1", {}, "paiju arena"),
        el("span", {class: "subtitle"}, "DouDizhu, GuanDan and Gongzhu against paiju's bots, or each other"),
        el("a", {href: "/leaderboard", dataset: {testid: "leaderboard-link"}}, "Leaderboard"),
        el("a", {href: "/ladder", dataset: {testid: "ladder-link"}}, "Bot ladder")),
      el("div", {class: "lobby-grid"},
        el("section", {class: "panel new-table"}, el("h2", {}, "New table"),
          el("label", {}, "Game ", this.gameSelect),
          this.variantLabel,
          el("h3", {}, "Seats"), this.seatArea,
          el("h3", {}, "Rules"), this.rulesArea,
          el("label", {}, "Seed ", this.seedInput),
          el("label", {}, "Bot delay (s) ", this.delayInput),
          this.createButton,
          this.error),
        el("section", {class: "panel"}, el("h2", {}, "Tables"), this.tablesArea),
        el("section", {class: "panel"}, el("h2", {}, "Finished games"), this.recordsArea))));
    this.renderVariants();
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
  }

  dispose() {
    clearInterval(this.timer);
  }

  /** The game's rule variants (癞子 DouDizhu), offered beside its classic rules when it has any. */
  renderVariants() {
    const variants = Object.entries(this.gamesInfo[this.gameSelect.value].variants || {});
    fill(this.variantSelect, el("option", {value: ""}, "classic"),
      variants.map(([name, variant]) => el("option", {value: name}, variant.label)));
    this.variantSelect.value = "";
    this.variantLabel.hidden = variants.length === 0;
    this.renderForm();
  }

  /** The chosen variant's entry of GET /api/games (the game's own for its classic rules): agents, rules... */
  chosenRules() {
    const info = this.gamesInfo[this.gameSelect.value];
    const variant = (info.variants || {})[this.variantSelect.value];
    return variant ? {...info, ...variant} : {...info, rules: {}};
  }

  renderForm() {
    const game = this.gameSelect.value;
    const info = this.chosenRules();
    const described = (name) => ((info.descriptions || {})[name] ? `${name} — ${info.descriptions[name]}`
      : `${name} (built-in bot)`);
    const options = [...info.agents.map((name) => [name, described(name)]),
      ["open", "open (anyone may join)"], ["human", "a person (you hold the seat)"]];
    this.seatSelects = [];
    for (let seat = 0; seat < info.num_players; seat++) {
      const choices = seat === 0 ? [["human", "You"], ...info.agents.map((name) => [name, described(name)])] : options;
      const select = el("select", {dataset: {testid: `seat-${seat}`}, onchange: () => this.labelCreate()},
        choices.map(([value, label]) => el("option", {value}, label)));
      select.value = seat === 0 ? "human" : info.table_bot || preferredAgent(info.agents);
      this.seatSelects.push(select);
    }
    fill(this.seatArea, this.seatSelects.map((select, seat) => el("label", {class: "seat-choice"},
      el("span", {}, `Seat ${seat}`), select)));
    this.labelCreate();
    const forPeople = GAMES[game].lobbyRules || {};
    this.ruleFields = Object.entries(info.default_rules).filter(([key]) => !(key in info.rules))
      .map(([key, value]) => [key, ruleField(game, key, key in forPeople ? forPeople[key] : value)]);
    fill(this.rulesArea, this.ruleFields.map(([key, field]) => el("label", {class: "rule"},
      el("span", {}, key.replaceAll("_", " ")), field.input)));
  }

  /** Whether every seat chosen is a built-in bot: the table is then created to be watched. */
  botsOnly() {
    return this.seatSelects.every((select) => select.value !== "human" && select.value !== "open");
  }

  labelCreate() {
    this.createButton.textContent = this.botsOnly() ? "Create the table and watch" : "Create the table and sit down";
  }

  async create() {
    const game = this.gameSelect.value;
    const spec = {
      game,
      rules: {...Object.fromEntries(this.ruleFields.map(([key, field]) => [key, field.read()])),
        ...this.chosenRules().rules},
      seats: this.seatSelects.map((select) => select.value),
    };
    if (this.seedInput.value.trim() !== "") spec.seed = Number(this.seedInput.value);
    if (this.delayInput.value.trim() !== "") spec.bot_delay = Number(this.delayInput.value);
    else if (this.botsOnly()) spec.bot_delay = WATCHED_BOT_DELAY;
    this.error.textContent = "";
    try {
      const table = await api.createTable(spec);
      const mine = table.seats.filter((seat) => seat.token);
      for (const seat of mine) tokens.save(table.table_id, seat.seat, seat.token);
      if (mine.length > 0) location.hash = `#/table/${encodeURIComponent(table.table_id)}/${mine[0].seat}`;
      else if (this.botsOnly()) location.hash = `#/watch/${encodeURIComponent(table.table_id)}`;
      else this.refresh();
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  async join(tableId, seat) {
    try {
      const {token} = await api.reserveSeat(tableId, seat);
      tokens.save(tableId, seat, token);
      location.hash = `#/table/${encodeURIComponent(tableId)}/${seat}`;
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  async refresh() {
    try {
      const [{tables}, records] = await Promise.all([api.tables(), api.records()]);
      this.renderTables(tables);
      this.renderRecords(records);
    } catch (error) {
      this.error.textContent = `The server did not answer: ${error.message}`;
    }
  }

  renderTables(tables) {
    const live = tables.filter((table) => table.status === "waiting" || table.status === "playing");
    if (live.length === 0) {
      fill(this.tablesArea, el("p", {class: "empty"}, "No table in progress."));
      return;
    }
    fill(this.tablesArea, el("ul", {class: "listing"}, live.map((table) => el("li", {dataset: {testid: "table"}},
      el("span", {class: "what"}, `${this.gameTitle(table.game, table.ruleset)} · ${table.table_id}`),
      el("span", {class: `status status-${table.status}`}, table.status),
      el("span", {class: "seats"}, table.seats.map((seat) => this.seatEntry(table, seat))),
      table.watchable ? el("a", {class: "button small", href: `#/watch/${encodeURIComponent(table.table_id)}`,
        dataset: {testid: "watch-table"}}, "Watch") : null))));
  }

  /** A game's title, and its variant's where it is not the classic game: "Dou Dizhu · 癞子 / wild card". */
  gameTitle(game, ruleset) {
    const title = (GAMES[game] || {title: game}).title;
    const variant = rulesetLabel(this.gamesInfo[game], ruleset);
    return variant ? `${title} · ${variant}` : title;
  }

  seatEntry(table, seat) {
    const mine = tokens.load(table.table_id, seat.seat);
    if (mine) {
      return el("a", {class: "button small", href: `#/table/${encodeURIComponent(table.table_id)}/${seat.seat}`},
        `Resume seat ${seat.seat}`);
    }
    if (seat.kind === "open" && !(seat.reserved ?? seat.connected)) {
      return el("button", {type: "button", class: "small", dataset: {testid: "join-seat"},
        onclick: () => this.join(table.table_id, seat.seat)}, `Take seat ${seat.seat}`);
    }
    const who = seat.agent || seat.kind;
    return el("span", {class: `seat-tag${seat.connected ? " connected" : ""}`}, `${seat.seat}: ${who}`);
  }

  renderRecords(records) {
    if (records.length === 0) {
      fill(this.recordsArea, el("p", {class: "empty"}, "No finished game yet."));
      return;
    }
    fill(this.recordsArea, el("ul", {class: "listing"}, records.map((record) => el("li", {dataset: {testid: "record"}},
      el("span", {class: "what"}, this.gameTitle(record.game, record.ruleset)),
      el("span", {class: "seats"}, record.seats.join(" · ")),
      el("span", {class: "payoff-list"}, (record.result.payoffs || []).map((value) => (value > 0 ? `+${value}` : value))
        .join(" / ")),
      el("time", {}, humanTime(record.finished)),
      el("a", {class: "button small", href: `#/replay/${encodeURIComponent(record.record_id)}`,
        dataset: {testid: "record-link"}}, "Replay")))));
  }
}
