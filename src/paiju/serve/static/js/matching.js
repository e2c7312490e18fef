// From selected cards to a legal action, and from an action back to cards in the hand.

import {countCards, sameCards} from "./cards.js";

/** The legal actions (passes and non-card choices left out) that play exactly the selected cards. */
export function matchingActions(game, legal, selected) {
  if (selected.length === 0) return [];
  return legal.filter((action) => {
    const cards = game.actionCards(action);
    return cards !== null && !game.isPass(action) && sameCards(cards, selected);
  });
}

/** The card plays Hint cycles through: those the last explain ranked come first, in its order. */
export function hintOrder(game, legal, candidates) {
  const plays = legal.filter((action) => game.actionCards(action) !== null && !game.isPass(action));
  const rank = new Map((candidates || []).map((candidate, i) => [JSON.stringify(candidate.action), i]));
  const position = (action) => rank.get(JSON.stringify(action)) ?? rank.size;
  return plays.map((action, i) => [position(action), i, action]).sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map(([, , action]) => action);
}

/** Indices in `hand` of the cards `cards` (each hand card used once); null when the hand lacks one. */
export function indicesOf(hand, cards) {
  const used = new Set();
  for (const card of cards) {
    const index = hand.findIndex((held, i) => held === card && !used.has(i));
    if (index < 0) return null;
    used.add(index);
  }
  return used;
}

/** Indices of `hand` (not selected) that some legal card play still contains together with the selected cards:
 * the cards worth clicking next; the others can be dimmed. */
export function extendable(game, legal, hand, selected) {
  const plays = legal.map((action) => game.actionCards(action)).filter((cards) => cards && cards.length)
    .map((cards) => countCards(cards));
  const chosen = countCards([...selected].map((i) => hand[i]));
  const fits = (play, card) => {
    for (const [name, n] of chosen) if ((play.get(name) || 0) < n + (name === card ? 1 : 0)) return false;
    return (play.get(card) || 0) >= (chosen.get(card) || 0) + 1;
  };
  const result = new Set();
  hand.forEach((card, index) => {
    if (!selected.has(index) && plays.some((play) => fits(play, card))) result.add(index);
  });
  return result;
}
