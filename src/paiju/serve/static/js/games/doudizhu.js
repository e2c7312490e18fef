// DouDizhu in the browser (shared/specs/doudizhu.md, protocol.md "doudizhu"): cards are rank letters
// 3456789TJQKA2 plus B (small joker) and R (big joker); plays are strings of them, "" = pass; bids 0..3.
// Under the 癞子 rules the observation's "wild" holds the wild ranks once there is a landlord, and a play whose
// wild cards stand for other ranks is written with "=" and what they stand for ("5558=5555", doudizhu_plays.js).

import {cardRow, countCards} from "../cards.js";
import {el} from "../dom.js";
import {ORDER, readingOf, readingToBeat, readingWords, splitPlay, substitutionWords, substitutions, wildRanks}
  from "./doudizhu_plays.js";

const LABELS = {T: "10", B: "Joker", R: "JOKER"};
const COUNTER_LABELS = {T: "10", B: "Small joker", R: "Big joker"};

/** Whether `card` is a wild card at the table `view` shows (癞子: the wild ranks once they are shown). */
function isWild(card, view) {
  return Boolean(view && view.wild && view.wild.includes(card));
}

function face(card, view) {
  if (card === "B" || card === "R") {
    return {rank: card, joker: true, red: card === "R", title: card === "R" ? "big joker" : "small joker"};
  }
  const rank = LABELS[card] || card;
  return isWild(card, view) ? {rank, wild: true, wildMark: "★", title: `${rank} (wild)`} : {rank, title: rank};
}

/** The cards a play takes from the hand (what its wild cards stand for left out). */
function actionCards(action) {
  return typeof action === "string" ? [...splitPlay(action).cards] : null;
}

function cardWords(cards) {
  return [...cards].map((card) => LABELS[card] || card).join(" ");
}

/** A play's cards, and what its wild cards stand for: "5 5 5 8 (8→5)". */
function actionLabel(action) {
  if (typeof action === "number") return action === 0 ? "No bid" : `Bid ${action}`;
  if (action === "") return "Pass";
  const swaps = substitutions(action).map(([card, stands]) => `${LABELS[card] || card}→${LABELS[stands] || stands}`);
  return `${cardWords(splitPlay(action).cards)}${swaps.length ? ` (${swaps.join(", ")})` : ""}`;
}

/** The play the seat to act must beat (as written), or null when it leads: both others passed after it, or
 * nobody has played. */
function playToBeat(view) {
  let follow = null;
  let passes = 0;
  for (const [, cards] of (view && view.history) || []) {
    if (cards !== "") {
      follow = cards;
      passes = 0;
    } else if (++passes === 2) {
      follow = null;
    }
  }
  return follow;
}

/** A play as the engine reads it at this point of the table, in words, with what its wild cards stand for:
 * "trio of 5 + 8", "soft bomb of 5 (8 as 5)"; `rules`: the table's (kicker options). */
function readingLabel(action, view, {rules = {}} = {}) {
  if (typeof action !== "string" || action === "") return actionLabel(action);
  const wild = wildRanks(view);
  const reading = readingOf(action, readingToBeat(view && view.history, wild, rules), wild, rules);
  if (reading === null) return actionLabel(action);
  const swaps = substitutionWords(action);
  return `${readingWords(reading, action)}${swaps ? ` (${swaps})` : ""}`;
}

/** A play's cards with their faces; a wild card standing for another rank says which ("8→5"). */
function playFaces(action, view) {
  const swaps = substitutions(action);
  return actionCards(action).map((card) => {
    const base = face(card, view);
    const swap = swaps.findIndex(([wildCard]) => wildCard === card);
    if (swap < 0) return {card, face: base};
    const stands = swaps.splice(swap, 1)[0][1];
    return {card, face: {...base, wild: true, standsFor: LABELS[stands] || stands,
      title: `${base.rank} as ${LABELS[stands] || stands}`}};
  });
}

/** Cards seen by `me`: own hand, every play, and the public cards the landlord has not (visibly) played. */
function seenCards(view, me, hand) {
  const seen = [...hand];
  const landlordPlayed = [];
  for (const [seat, action] of view.history) {
    const cards = actionCards(action);
    seen.push(...cards);
    if (seat === view.landlord) landlordPlayed.push(...cards);
  }
  if (view.public && view.landlord !== me) {
    const played = countCards(landlordPlayed);
    for (const [card, n] of countCards([...view.public])) {
      for (let i = n - (played.get(card) || 0); i > 0; i--) seen.push(card);
    }
  }
  return seen;
}

/** The wild ranks as a badge beside the landlord's cards: "Wild: 8". */
function wildBadge(view) {
  return el("span", {class: "wild-badge", dataset: {testid: "wild-badge"}, title: "wild rank: its four cards stand "
    + "for any rank 3..2 inside a combination"}, `Wild: ${cardWords(view.wild)}`);
}

/** The play to beat in words: read as it was played (before the seat to act). */
function readingLabelOf(follow, view, context) {
  const history = view.history || [];
  let last = history.length - 1;
  while (last >= 0 && history[last][1] !== follow) last--;
  return readingLabel(follow, {...view, history: history.slice(0, Math.max(last, 0))}, context || {});
}

export const doudizhu = {
  title: "Dou Dizhu",
  ruleChoices: {mode: ["full", "research"], wild_ranks: [1, 2]},
  ruleLabels: {mode: {full: "full: bidding, then play", research: "research: seat 0 is the landlord, no bidding"},
    wild_ranks: {1: "one wild rank", 2: "two wild ranks (天地癞子)"}},
  lobbyRules: {mode: "full", redeal_limit: 3},
  face,
  handCards: (hand) => [...hand],
  /** Higher sorts first: jokers and twos on the left. */
  sortKey: (card) => ORDER.indexOf(card),
  actionCards,
  isPass: (action) => action === "",
  canPass: true,
  actionLabel,
  readingLabel,
  playFaces,
  deck: () => [...ORDER.slice(0, 13)].flatMap((card) => [card, card, card, card]).concat(["B", "R"]),
  cardsLeft: (view, seat) => view.cards_left[seat],
  seenCards,
  counterRows(unseen, view) {
    const counts = countCards(unseen);
    return [...ORDER].reverse().map((card) => [`${COUNTER_LABELS[card] || card}${isWild(card, view) ? " ★" : ""}`,
      counts.get(card) || 0]);
  },
  /** Bids while bidding; afterwards each seat's action among the last three. */
  recentPlays(view, phase) {
    const recent = new Map();
    if (phase === "bid") {
      for (const [seat, bid] of view.bids) recent.set(seat, {action: bid});
    } else {
      for (const [seat, action] of view.history.slice(-3)) recent.set(seat, {action});
    }
    return recent;
  },
  seatTags(view, seat) {
    if (view.landlord === null || view.landlord === undefined) return [];
    return seat === view.landlord ? [{text: "Landlord", kind: "landlord"}] : [{text: "Peasant", kind: "peasant"}];
  },
  info(view, {seatName}) {
    let bids = view.bids.length
      ? view.bids.map(([seat, bid]) => `${seatName(seat)}: ${bid === 0 ? "pass" : bid}`).join(", ")
      : "none yet";
    if (view.landlord !== null && view.bids.length && view.bids.every(([, bid]) => bid === 0)) {
      bids = `everybody passed ${(view.voided || 0) + 1} deals in a row: by the redeal limit, the first bidder `
        + "plays as landlord at 1";
    }
    const publicCards = view.public ? cardRow([...view.public], (card) => face(card, view), "mini")
      : "hidden until the bidding ends";
    return [
      ["Landlord", view.landlord === null ? "not yet chosen" : seatName(view.landlord), "landlord"],
      ["Landlord cards", view.wild ? el("span", {class: "public-cards"}, publicCards, wildBadge(view)) : publicCards,
        "public"],
      ["Bids", bids, "bids"],
      ["Multiplier", `×${view.multiplier}`, "multiplier"],
    ];
  },
  prompt(phase, view, context) {
    if (phase === "bid") return "Your bid: 0 passes, the highest bid becomes the landlord.";
    const follow = playToBeat(view);
    if (follow === null) return "You lead: play any combination.";
    const named = view.wild !== undefined ? readingLabelOf(follow, view, context) : actionLabel(follow);
    return `Beat ${named} with a higher play of the same kind, a bomb or the rocket, or pass.`;
  },
  choiceButtons(phase, legal) {
    return phase === "bid" ? legal.map((bid) => ({action: bid, label: actionLabel(bid), testid: `bid-${bid}`})) : [];
  },
  resultLines(result, {seatName}) {
    return [
      `${result.winner === "landlord" ? "The landlord" : "The peasants"} won (landlord: ${seatName(result.landlord)}).`,
      `Bid ${result.bid}, bombs ${result.bombs}, multiplier ×${result.multiplier}${result.spring ? ", spring" : ""}.`,
    ];
  },
  newDealNote: () => "Everybody passed: the cards are dealt again.",
};
