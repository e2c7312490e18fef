// Gongzhu in the browser (shared/specs/gongzhu.md, protocol.md "gongzhu"): one deck, cards named suit + rank
// (SQ, H10, DJ); every action is one card. Scores follow paiju.games.gongzhu.scoring (ScrofaZero Table 1).

import {SUIT_SYMBOLS, cardRow} from "../cards.js";

const SUITS = "SHCD";
const SUIT_NAMES = {S: "Spades", H: "Hearts", D: "Diamonds", C: "Clubs"};
const RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const HEART_POINTS = {
  2: 0, 3: 0, 4: 0, 5: -10, 6: -10, 7: -10, 8: -10, 9: -10, 10: -10, J: -20, Q: -30, K: -40, A: -50,
};

/** A player's score from the scoring cards they took: hearts, the pig SQ -100, the sheep DJ +100, and the
 * transformer C10 doubling the rest (+50 alone); all 13 hearts count +200. */
export function playerScore(taken) {
  const hearts = taken.filter((card) => card[0] === "H");
  let total = hearts.length === 13 ? 200 : hearts.reduce((sum, card) => sum + HEART_POINTS[card.slice(1)], 0);
  if (taken.includes("SQ")) total -= 100;
  if (taken.includes("DJ")) total += 100;
  if (taken.includes("C10")) return taken.length > 1 ? 2 * total : 50;
  return total;
}

/** The cards that score on their own: the pig (-100), the sheep (+100), the doubler (doubles the taker's score). */
const SPECIAL_CARDS = [["SQ", "Pig", "pig"], ["DJ", "Sheep", "sheep"], ["C10", "Doubler", "doubler"]];

function face(card) {
  const suit = card[0];
  return {rank: card.slice(1), suit, red: suit === "H" || suit === "D", title: card};
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

export const gongzhu = {
  title: "Gongzhu",
  ruleChoices: {first_leader: [0, 1, 2, 3]},
  face,
  handCards: (hand) => [...hand],
  /** By suit (spades, hearts, clubs, diamonds: colours alternate), high ranks first within a suit. */
  sortKey: (card) => (3 - SUITS.indexOf(card[0])) * 13 + RANKS.indexOf(card.slice(1)),
  actionCards: (action) => [action],
  isPass: () => false,
  canPass: false,
  actionLabel: (action) => `${action.slice(1)}${SUIT_SYMBOLS[action[0]]}`,
  deck: () => [...SUITS].flatMap((suit) => RANKS.map((rank) => suit + rank)),
  cardsLeft: (view, seat) => 13 - [...view.history, ...view.trick].filter(([player]) => player === seat).length,
  seenCards: (view, me, hand) => [...hand, ...[...view.history, ...view.trick].map(([, card]) => card)],
  counterRows(unseen) {
    return [...SUITS].map((suit) => [SUIT_NAMES[suit],
      unseen.filter((card) => card[0] === suit).map((card) => card.slice(1)).reverse().join(" ") || "—"]);
  },
  /** The trick in progress; between tricks, the last completed one (marked as done). */
  recentPlays(view) {
    const recent = new Map();
    const done = view.trick.length === 0 && view.history.length > 0;
    const plays = done ? view.history.slice(-4) : view.trick;
    for (const [seat, card] of plays) recent.set(seat, {action: card, done});
    return recent;
  },
  seatTags(view, seat, me) {
    const tags = [];
    if (seat !== me) tags.push({text: (seat - me) % 2 === 0 ? "Partner" : "Opponent", kind: "team"});
    if (view.trick.length > 0 && seat === view.leader) tags.push({text: "Led", kind: "leader"});
    tags.push({text: `${signed(playerScore(view.taken[seat]))} pts`, kind: "score"});
    return tags;
  },
  info(view, {seatName, me}) {
    const scores = view.taken.map(playerScore);
    const ours = scores[me] + scores[(me + 2) % 4];
    const theirs = scores[(me + 1) % 4] + scores[(me + 3) % 4];
    const rows = [
      ["Trick", `${Math.min(13, view.history.length / 4 + 1)} of 13, led by ${seatName(view.leader)}`, "trick"],
      ["Team scores", `ours ${signed(ours)}, theirs ${signed(theirs)}`, "team-scores"],
    ];
    for (const [card, name, testid] of SPECIAL_CARDS) {
      const holder = view.taken.findIndex((cards) => cards.includes(card));
      const where = holder < 0 ? "not taken yet" : `taken by ${seatName(holder)}`;
      rows.push([`${name} ${card.slice(1)}${SUIT_SYMBOLS[card[0]]}`, where, testid]);
    }
    view.taken.forEach((cards, seat) => {
      const shown = cards.length ? cardRow(cards, face, "mini") : "nothing yet";
      rows.push([`${seatName(seat)} took`, shown, `taken-${seat}`]);
    });
    return rows;
  },
  prompt(phase, view) {
    const trick = (view && view.trick) || [];
    if (trick.length === 0) return "You lead: play any card.";
    const suit = trick[0][1][0];
    return view.hand.some((card) => card[0] === suit) ? `Follow ${SUIT_SYMBOLS[suit]}: play a ${SUIT_SYMBOLS[suit]} card.`
      : `You have no ${SUIT_SYMBOLS[suit]}: play any card.`;
  },
  choiceButtons: () => [],
  resultLines(result, {seatName}) {
    return [`Scores: ${result.scores.map((score, seat) => `${seatName(seat)} ${signed(score)}`).join(", ")}.`];
  },
};
