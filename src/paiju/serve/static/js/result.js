// The result screen: each seat's payoff, the game's own summary lines, and a link to the replay.

import {el} from "./dom.js";

function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

/** `result` is the engine's result JSON (payoffs by seat first); `recordId` links the stored game. */
export function resultElement(game, result, {me, seatName, recordId, onClose}) {
  const payoff = result.payoffs[me];
  const verdict = payoff > 0 ? "You win" : payoff < 0 ? "You lose" : "A draw";
  return el("div", {class: "result", dataset: {testid: "result"}},
    el("h2", {}, me === null ? "Game over" : verdict),
    el("table", {class: "payoffs"},
      el("thead", {}, el("tr", {}, el("th", {}, "Seat"), el("th", {}, "Payoff"))),
      el("tbody", {}, result.payoffs.map((value, seat) => el("tr", {class: seat === me ? "me" : ""},
        el("td", {}, seatName(seat)),
        el("td", {class: value > 0 ? "win" : value < 0 ? "loss" : "", dataset: {
          testid: "payoff", seat: String(seat), value: String(value)}}, signed(value)))))),
    game.resultLines(result, {me: me ?? 0, seatName}).map((line) => el("p", {class: "result-line"}, line)),
    el("div", {class: "result-actions"},
      recordId ? el("a", {class: "button primary", href: `#/replay/${encodeURIComponent(recordId)}`,
        dataset: {testid: "replay-link"}}, "Watch the replay") : null,
      el("a", {class: "button", href: "#/", dataset: {testid: "lobby-link"}}, "Back to the lobby"),
      onClose ? el("button", {type: "button", onclick: onClose, dataset: {testid: "result-close"}}, "See the table")
        : null));
}
