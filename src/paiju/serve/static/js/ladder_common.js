// What the ladder's pages share: the ladder's HTTP API (JSON; a refusal raised with the server's own words),
// and numbers, times, names and tables written as a player reads them.

import {el} from "./dom.js";
import {GAMES} from "./games/index.js";

/** A refused request: `status` the HTTP status, the message the server's `detail`. */
export class Refusal extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function request(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const text = await response.text();
  let payload = null;
  try {
    payload = text ? JSON.parse(text) : null;
  } catch {
    payload = {detail: text};
  }
  if (!response.ok) {
    const detail = payload && payload.detail;
    throw new Refusal(response.status, typeof detail === "string" ? detail : `the server answered ${response.status}`);
  }
  return payload;
}

export const gameTitle = (game) => (GAMES[game] || {title: game}).title;

export const botPath = (name) => `/ladder/bots/${encodeURIComponent(name)}`;

export const replayPath = (recordId) => `/#/replay/${encodeURIComponent(recordId)}`;

/** `value` with at most `digits` decimals. */
export const fixed = (value, digits = 2) => String(Math.round(value * 10 ** digits) / 10 ** digits);

/** A payoff with its sign. */
export const signed = (value) => (value > 0 ? `+${fixed(value)}` : fixed(value));

/** A date and time in the reader's own format; `short`: the date written short. */
export function humanTime(iso, short = false) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso);
  return short ? date.toLocaleString([], {dateStyle: "short", timeStyle: "medium"}) : date.toLocaleString();
}

/** A small tag marking one of the arena's own bots. */
export const houseTag = () => el("span", {class: "house-tag", title: "one of the arena's own bots"}, "house");

/** A table in a box that scrolls sideways on a narrow screen: `columns` [[title, class?]], `rows` [[cells], attrs]. */
export function scrollingTable(testid, columns, rows) {
  return el("div", {class: "table-box"},
    el("table", {class: "ladder-table", dataset: {testid}},
      el("thead", {}, el("tr", {}, columns.map(([title, kind]) => el("th", {class: kind}, title)))),
      el("tbody", {}, rows.map(([cells, attrs]) => el("tr", attrs || {},
        cells.map((cell, index) => el("td", {class: columns[index][1]}, cell)))))));
}
