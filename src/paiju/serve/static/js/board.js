// The felt: every seat around the table with its name, tags, cards left, last play and (when shown) its hand.
// Live tables and the replay viewer draw through the same function; only what they pass differs.

import {cardElement, cardRow, faceRow, hiddenStack} from "./cards.js";
import {el} from "./dom.js";

const POSITIONS = {3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"]};

/** Where `seat` sits on the screen, seen from `me` (at the bottom; play goes to the right). */
function positionOf(seat, me, seatCount) {
  return POSITIONS[seatCount][(seat - me + seatCount) % seatCount];
}

/** A hand face up, sorted as the game sorts it (high cards first). */
export function sortedHand(game, cards, view) {
  return [...cards].sort((a, b) => game.sortKey(b, view) - game.sortKey(a, view));
}

function playElement(game, view, play, fresh = false) {
  if (!play) return el("div", {class: "seat-play empty", dataset: {testid: "last-play"}});
  const cards = game.actionCards(play.action);
  let body;
  if (cards === null || game.isPass(play.action)) body = el("span", {class: "play-word"}, game.actionLabel(play.action));
  else if (game.playFaces) body = faceRow(game.playFaces(play.action, view), "table");
  else body = cardRow(cards, (card) => game.face(card, view), "table");
  return el("div", {class: `seat-play${play.done ? " done" : ""}${fresh ? " fresh" : ""}`, dataset: {testid: "last-play"},
    title: game.actionLabel(play.action)}, body);
}

function handElement(game, view, cards, count) {
  if (cards === undefined) return null;
  if (cards === null) return count > 0 ? el("div", {class: "seat-hand"}, hiddenStack(count)) : null;
  return el("div", {class: "seat-hand shown", dataset: {testid: "shown-hand"}},
    sortedHand(game, cards, view).map((card) => cardElement(card, game.face(card, view), {size: "mini"})));
}

/**
 * The felt for `view` (an observation JSON, or a replay frame's full view).
 * `hands[seat]`: the seat's cards to show face up, null for a face-down stack, undefined for nothing (the
 * live player's own hand, drawn below the felt). `turnText` goes beside the seat to act. `fresh`: the seat whose
 * play has just arrived; it slides in from that seat. The centre shows the game's `centrePanel(view, phase,
 * {me, seatName, toAct, mine})` when it has one (GuanDan's tribute step), then `centre`; `mine`: at a live
 * table, the actions `me` made this deal (null in a replay, where `me` is only the seat drawn at the bottom).
 */
export function boardElement({game, view, phase, me, seatCount, seatName, hands, toAct, turnText, centre,
  fresh = null, mine = null}) {
  const recent = game.recentPlays(view, phase);
  const seats = [];
  for (let seat = 0; seat < seatCount; seat++) {
    const count = game.cardsLeft(view, seat);
    const acting = seat === toAct;
    const tags = game.seatTags(view, seat, me).map((tag) => el("span", {class: `tag tag-${tag.kind}`}, tag.text));
    const panel = el("div", {class: "seat-panel"},
      el("div", {class: "seat-name"}, seatName(seat)),
      el("div", {class: "tags"}, tags),
      el("div", {class: "cards-left", dataset: {testid: "cards-left"}}, `${count} card${count === 1 ? "" : "s"}`),
      acting ? el("div", {class: "turn", id: seat === me ? "turn-clock" : null, dataset: {testid: "turn"}},
        turnText || "to play") : null);
    const play = recent.get(seat);
    seats.push(el("div", {
      class: `seat pos-${positionOf(seat, me, seatCount)}${acting ? " acting" : ""}`,
      dataset: {testid: "seat", seat: String(seat)},
    }, panel, handElement(game, view, hands[seat], count),
    // The seat to act is about to replace its previous play; a finished trick stays until the next card.
    playElement(game, view, acting && play && !play.done ? null : play, seat === fresh)));
  }
  const panel = game.centrePanel ? game.centrePanel(view, phase, {me, seatName, toAct, mine}) : null;
  return el("div", {class: `felt felt-${seatCount}`, dataset: {testid: "board"}},
    seats, el("div", {class: `felt-centre${panel ? " with-panel" : ""}`, dataset: {testid: "centre"}},
      panel, panel && centre ? el("div", {class: "centre-note"}, centre) : centre || ""));
}

/** The game's information rows (landlord, levels, scores...) as a definition list. */
export function infoElement(game, view, context) {
  return el("dl", {class: "info", dataset: {testid: "info"}},
    game.info(view, context).map(([label, value, testid]) => [
      el("dt", {}, label),
      el("dd", {dataset: {testid: `info-${testid}`}}, value),
    ]));
}
