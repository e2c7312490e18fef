// Drawing cards. Each game describes a card by a face: {rank, suit, red, joker, wild, wildMark, standsFor}
// (wildMark: the word marking a wild card, "wild" unless given; standsFor: the rank a wild card stands for in a
// play); this module draws it.

import {el} from "./dom.js";

export const SUIT_SYMBOLS = {S: "♠", H: "♥", D: "♦", C: "♣"};

/** Count each card: multiset as a Map card -> count. */
export function countCards(cards) {
  const counts = new Map();
  for (const card of cards) counts.set(card, (counts.get(card) || 0) + 1);
  return counts;
}

/** True when both card lists hold the same cards, as multisets. */
export function sameCards(left, right) {
  if (left.length !== right.length) return false;
  const counts = countCards(left);
  for (const card of right) {
    const n = counts.get(card) || 0;
    if (n === 0) return false;
    counts.set(card, n - 1);
  }
  return true;
}

/** `cards` minus `removed`, as multisets (a removed card that is absent is ignored). */
export function removeCards(cards, removed) {
  const counts = countCards(removed);
  const rest = [];
  for (const card of cards) {
    const n = counts.get(card) || 0;
    if (n > 0) counts.set(card, n - 1);
    else rest.push(card);
  }
  return rest;
}

/**
 * A card element. `size` is "hand", "table" or "mini"; data-card holds the card's protocol name so tests and
 * the selection logic can read it back.
 */
export function cardElement(card, face, {size = "table", index = null, selected = false} = {}) {
  const classes = ["card", `card-${size}`];
  if (face.red) classes.push("red");
  if (face.joker) classes.push("joker");
  if (face.wild) classes.push("wild");
  if (face.standsFor) classes.push("substituted");
  if (selected) classes.push("selected");
  const corner = face.joker
    ? el("span", {class: "corner"}, el("span", {class: "rank joker-text"}, "JOKER"))
    : el("span", {class: "corner"}, el("span", {class: "rank"}, face.rank),
      face.suit ? el("span", {class: "suit"}, SUIT_SYMBOLS[face.suit]) : null,
      face.wild ? el("span", {class: "wild-mark"}, face.wildMark || "wild") : null);
  const pip = face.joker ? (face.red ? "★" : "☆") : SUIT_SYMBOLS[face.suit];
  return el("div", {
    class: classes.join(" "),
    title: face.title || card,
    dataset: {testid: "card", card, ...(index === null ? {} : {index: String(index)}),
      ...(face.standsFor ? {standsFor: face.standsFor} : {})},
  }, corner, pip ? el("span", {class: "pip"}, pip) : null,
  face.standsFor ? el("span", {class: "stands-for", dataset: {testid: "stands-for"}},
    `${face.rank}→${face.standsFor}`) : null);
}

/** A face-down stack standing for `count` hidden cards. */
export function hiddenStack(count) {
  return el("div", {class: "hidden-stack", dataset: {testid: "hidden-cards"}, title: `${count} cards`},
    el("div", {class: "card card-mini back"}), el("span", {class: "count"}, `×${count}`));
}

/** A row of cards (a play, public cards, a shown hand). */
export function cardRow(cards, faceOf, size = "table") {
  return faceRow(cards.map((card) => ({card, face: faceOf(card)})), size);
}

/** A row of cards each drawn with its own face ([{card, face}]): a play whose wild cards stand for other ranks. */
export function faceRow(faces, size = "table") {
  return el("div", {class: `card-row row-${size}`}, faces.map(({card, face}) => cardElement(card, face, {size})));
}
