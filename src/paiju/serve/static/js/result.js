// The result screen: each seat's payoff, the game's own summary lines, and a link to the replay.

import {cardRow} from "./cards.js";
import {el} from "./dom.js";

function signed(value) {
  return value > 0 ? `+${value}` : String(value);
}

/** Every seat's dealt hand, face up (the game is over: nothing is secret any more). */
function handsElement(hands, seatName, faceOf) {
  return el("div", {class: "revealed", dataset: {testid: "revealed-hands"}}, el("h3", {}, "The hands as dealt"),
    hands.map((cards, seat) => el("div", {class: "revealed-hand", dataset: {testid: "revealed-hand"}},
      el("span", {class: "revealed-seat"}, seatName(seat)), cardRow(cards, faceOf, "mini"))));
}

/** `result` is the engine's result JSON (payoffs by seat first); `recordId` links the stored game; `hands` (each
 * seat's dealt cards, once known) are shown face up; `onPlayAgain` offers a new table with the same seats. */
export function resultElement(game, result, {me, seatName, recordId, onClose, hands = null, faceOf = null,
  onPlayAgain = null}) {
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
    hands && faceOf ? handsElement(hands, seatName, faceOf) : null,
    el("div", {class: "result-actions"},
      onPlayAgain ? el("button", {type: "button", class: "primary", onclick: onPlayAgain,
        dataset: {testid: "play-again"}}, "Play again with the same seats") : null,
      recordId ? el("a", {class: "button primary", href: `#/replay/${encodeURIComponent(recordId)}`,
        dataset: {testid: "replay-link"}}, "Watch the replay") : null,
      el("a", {class: "button", href: "#/", dataset: {testid: "lobby-link"}},
        onPlayAgain ? "Leave the table" : "Back to the lobby"),
      onClose ? el("button", {type: "button", onclick: onClose, dataset: {testid: "result-close"}}, "See the table")
        : null));
}
