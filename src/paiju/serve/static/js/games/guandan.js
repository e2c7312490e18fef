// GuanDan in the browser (shared/specs/guandan.md, protocol.md "guandan"): two decks; cards are suit + rank
// (H9, ST; SB small joker, HR big joker); plays are [type, rank, cards], pass ["PASS","PASS","PASS"];
// tribute and return are ["tribute","tribute",[card]] / ["back","back",[card]]. The level's cards rank above
// the ace, and the two hearts of the level rank are wild.

import {SUIT_SYMBOLS, countCards} from "../cards.js";

const RANKS = "23456789TJQKA";
const SUIT_ORDER = "DCSH";
const LABELS = {T: "10"};
const PLAY_RANKS = {...LABELS, B: "small joker", R: "big joker"};
const PLACES = ["1st", "2nd", "3rd", "4th"];

function isJoker(card) {
  return card === "SB" || card === "HR";
}

/** Rank order of GuanDan: 2 < ... < A < level card < small joker < big joker. */
function power(card, level) {
  if (card === "SB") return 14;
  if (card === "HR") return 15;
  const rank = card[1];
  return rank === level ? 13 : RANKS.indexOf(rank);
}

function face(card, view) {
  if (isJoker(card)) {
    return {rank: card, joker: true, red: card === "HR", title: card === "HR" ? "big joker" : "small joker"};
  }
  const suit = card[0];
  const rank = LABELS[card[1]] || card[1];
  const wild = Boolean(view && view.level === card[1] && suit === "H");
  return {rank, suit, red: suit === "H" || suit === "D", wild, title: wild ? `${card} (wild)` : card};
}

/** Single cards low to high at this level: the level's rank leaves its place and ranks above the ace. */
function rankOrder(level) {
  const order = [...RANKS].filter((rank) => rank !== level && rank !== "A").map((rank) => LABELS[rank] || rank);
  const top = level === "A" ? "A" : `A ${LABELS[level] || level}`;
  return `${order.join(" ")} ${top}, small joker, big joker`;
}

function humanType(type) {
  return type.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/ ([A-Z])/g, (_, letter) => ` ${letter.toLowerCase()}`);
}

/** A card as players write it: 10♠, Q♥, the jokers by name. */
function cardText(card) {
  if (isJoker(card)) return card === "HR" ? "big joker" : "small joker";
  return `${LABELS[card[1]] || card[1]}${SUIT_SYMBOLS[card[0]]}`;
}

/** The action log's line: the play's kind and its cards ("Straight A: 10♠ J♥ Q♣ K♦ A♠"). */
function logLabel(action) {
  const [type, , cards] = action;
  if (type === "PASS" || type === "tribute" || type === "back" || !cards || cards.length === 0) {
    return actionLabel(action);
  }
  return `${actionLabel(action)}: ${cards.map(cardText).join(" ")}`;
}

function actionLabel(action) {
  const [type, rank, cards] = action;
  if (type === "PASS") return "Pass";
  if (type === "tribute") return `Tribute ${cards.join(" ")}`;
  if (type === "back") return `Return ${cards.join(" ")}`;
  return `${humanType(type)} ${PLAY_RANKS[rank] || rank}`;
}

function teamLevel(view, seat, me) {
  return (seat - me) % 2 === 0 ? view.self_level : view.oppo_level;
}

export const guandan = {
  title: "GuanDan",
  ruleChoices: {start_level: [...RANKS], rounds: [1, null]},
  ruleLabels: {rounds: {1: "one round (about 5 minutes)",
                        null: "a game to A (usually 10 to 20 rounds: an hour or more)"}},
  lobbyRules: {rounds: 1},
  face,
  handCards: (hand) => [...hand],
  sortKey: (card, view) => power(card, view.level) * 4 + SUIT_ORDER.indexOf(card[0]),
  actionCards: (action) => (action[0] === "PASS" ? [] : [...action[2]]),
  isPass: (action) => action[0] === "PASS",
  canPass: true,
  actionLabel,
  logLabel,
  deck: () => {
    const distinct = [...RANKS].flatMap((rank) => ["H", "S", "C", "D"].map((suit) => suit + rank)).concat(["SB", "HR"]);
    return distinct.flatMap((card) => [card, card]);
  },
  cardsLeft: (view, seat) => view.cards_left[seat],
  seenCards: (view, me, hand) => [...hand, ...view.history.flatMap(([, action]) => guandan.actionCards(action))],
  counterRows(unseen, view) {
    const byRank = countCards(unseen.map((card) => (isJoker(card) ? card : card[1])));
    const order = [...RANKS].filter((rank) => rank !== view.level).concat([view.level, "SB", "HR"]).reverse();
    const names = {SB: "Small joker", HR: "Big joker"};
    return order.map((rank) => [names[rank] || LABELS[rank] || rank, byRank.get(rank) || 0]);
  },
  /** Each seat's action among the last four. */
  recentPlays(view) {
    const recent = new Map();
    for (const [seat, action] of view.history.slice(-4)) recent.set(seat, {action});
    return recent;
  },
  seatTags(view, seat, me) {
    const tags = [];
    if (seat !== me) tags.push({text: (seat - me) % 2 === 0 ? "Partner" : "Opponent", kind: "team"});
    tags.push({text: `Level ${LABELS[teamLevel(view, seat, me)] || teamLevel(view, seat, me)}`, kind: "level"});
    const place = view.finished.indexOf(seat);
    if (place >= 0) tags.push({text: `Out ${PLACES[place]}`, kind: "finished"});
    return tags;
  },
  info(view, {seatName, deal}) {
    const level = LABELS[view.level] || view.level;
    const rows = [];
    if (deal !== null && deal !== undefined) rows.push(["Round", String(deal + 1), "round"]);
    rows.push(
      ["Level", `${level} (wild: ♥${level})`, "level"],
      ["Rank order", rankOrder(view.level), "rank-order"],
      ["Our team", LABELS[view.self_level] || view.self_level, "self-level"],
      ["Other team", LABELS[view.oppo_level] || view.oppo_level, "oppo-level"],
      ["Finish order", view.finished.length ? view.finished.map(seatName).join(", ") : "nobody out yet", "finished"],
    );
    return rows;
  },
  prompt(phase, view, me) {
    if (phase === "tribute") return "Pay tribute: select your highest card that is not wild, then Play.";
    if (phase === "back") return "Return a card (10 or lower) to the player who paid you, then Play.";
    const greater = view && view.greater;
    if (!greater || greater[0] === me) return "You lead: play any combination.";
    return `Beat ${actionLabel(greater[1])} with a higher ${humanType(greater[1][0]).toLowerCase()}, a bomb, or pass.`;
  },
  choiceButtons: () => [],
  resultLines(result, {me}) {
    const ours = me % 2;
    const lines = [`Final levels: our team ${result.levels[ours]}, the other team ${result.levels[1 - ours]}.`];
    result.rounds.forEach((round, i) => {
      lines.push(`Round ${i + 1} at ${round.level}: finish order ${round.order.join(", ")}, `
        + `our team ${round.scores[ours] >= 0 ? "+" : ""}${round.scores[ours]}.`);
    });
    return lines;
  },
  /** The observation does not say how the last round ended; the levels before and after it do. */
  newDealNote: (previous, view, {deal}) => {
    const name = (level) => LABELS[level] || level;
    return `Round ${deal} is over. Our team ${name(previous.self_level)} → ${name(view.self_level)}, `
      + `the other team ${name(previous.oppo_level)} → ${name(view.oppo_level)}. `
      + `Round ${deal + 1} is played at level ${name(view.level)}.`;
  },
};
