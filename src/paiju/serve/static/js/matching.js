// From selected cards to a legal action, and from an action back to cards in the hand.

import {sameCards} from "./cards.js";

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
