// DouDizhu in the browser (shared/specs/doudizhu.md, protocol.md "doudizhu"): cards are rank letters
// 3456789TJQKA2 plus B (small joker) and R (big joker); plays are strings of them, "" = pass; bids 0..3.

import {cardRow, countCards} from "../cards.js";

const ORDER = "3456789TJQKA2BR";
const LABELS = {T: "10", B: "Joker", R: "JOKER"};
const COUNTER_LABELS = {T: "10", B: "Small joker", R: "Big joker"};

function face(card) {
  if (card === "B" || card === "R") {
    return {rank: card, joker: true, red: card === "R", title: card === "R" ? "big joker" : "small joker"};
  }
  return {rank: LABELS[card] || card, title: LABELS[card] || card};
}

function actionCards(action) {
  return typeof action === "string" ? [...action] : null;
}

function actionLabel(action) {
  if (typeof action === "number") return action === 0 ? "No bid" : `Bid ${action}`;
  return action === "" ? "Pass" : [...action].map((card) => LABELS[card] || card).join(" ");
}

/** The play the seat to act must beat (its cards), or null when it leads: both others passed after it, or
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

/** Cards seen by `me`: own hand, every play, and the public cards the landlord has not (visibly) played. */
function seenCards(view, me, hand) {
  const seen = [...hand];
  const landlordPlayed = [];
  for (const [seat, cards] of view.history) {
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

export const doudizhu = {
  title: "Dou Dizhu",
  ruleChoices: {mode: ["full", "research"]},
  ruleLabels: {mode: {full: "full: bidding, then play", research: "research: seat 0 is the landlord, no bidding"}},
  lobbyRules: {mode: "full", redeal_limit: 3},
  face,
  handCards: (hand) => [...hand],
  /** Higher sorts first: jokers and twos on the left. */
  sortKey: (card) => ORDER.indexOf(card),
  actionCards,
  isPass: (action) => action === "",
  canPass: true,
  actionLabel,
  deck: () => [...ORDER.slice(0, 13)].flatMap((card) => [card, card, card, card]).concat(["B", "R"]),
  cardsLeft: (view, seat) => view.cards_left[seat],
  seenCards,
  counterRows(unseen) {
    const counts = countCards(unseen);
    return [...ORDER].reverse().map((card) => [COUNTER_LABELS[card] || card, counts.get(card) || 0]);
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
    return [
      ["Landlord", view.landlord === null ? "not yet chosen" : seatName(view.landlord), "landlord"],
      ["Landlord cards", view.public ? cardRow([...view.public], face, "mini") : "hidden until the bidding ends",
        "public"],
      ["Bids", bids, "bids"],
      ["Multiplier", `×${view.multiplier}`, "multiplier"],
    ];
  },
  prompt(phase, view) {
    if (phase === "bid") return "Your bid: 0 passes, the highest bid becomes the landlord.";
    const follow = playToBeat(view);
    return follow === null ? "You lead: play any combination."
      : `Beat ${actionLabel(follow)} with a higher play of the same kind, a bomb or the rocket, or pass.`;
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
