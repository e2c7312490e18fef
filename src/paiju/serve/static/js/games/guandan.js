// GuanDan in the browser (shared/specs/guandan.md, protocol.md "guandan"): two decks; cards are suit + rank
// (H9, ST; SB small joker, HR big joker); plays are [type, rank, cards], pass ["PASS","PASS","PASS"];
// tribute and return are ["tribute","tribute",[card]] / ["back","back",[card]]. The level's cards rank above
// the ace, and the two hearts of the level rank are wild.

import {SUIT_SYMBOLS, cardElement, countCards} from "../cards.js";
import {el} from "../dom.js";

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
  if (type === "tribute") return `Tribute ${cards.map(cardText).join(" ")}`;
  if (type === "back") return `Return ${cards.map(cardText).join(" ")}`;
  return `${humanType(type)} ${PLAY_RANKS[rank] || rank}`;
}

/**
 * Who pays whom after a round that finished in `order` (tribute.py, TributeRoles): the 4th pays the 1st;
 * when the 1st's partner came 2nd (double down) the 3rd and the 4th both pay, in turn order from the 1st.
 */
export function tributeRoles(order) {
  const first = order[0];
  if (order[1] === (first ^ 2)) {
    const after = (seat) => (seat - first + 4) % 4;
    return {payers: order.slice(2).sort((a, b) => after(a) - after(b)), receivers: [first, order[1]], double: true};
  }
  return {payers: [order[3]], receivers: [first], double: false};
}

/** Where each gift of a phase stands: given (its card public), sealed (chosen, kept out of every observation
 * until the phase's last gift is chosen), choosing (the seat to act) or waiting. */
function giftState(index, deciders, phase, kind, toAct) {
  if (phase !== kind) return "waiting";
  const acting = deciders.indexOf(toAct);
  if (acting < 0 || index < acting) return "sealed";
  return index === acting ? "choosing" : "waiting";
}

/**
 * The tribute step of a round after the first, from an observation (or a replay frame's view), `phase`, the
 * seat to act, and at a live table this seat (`me`) and its actions this round (`mine`: its sealed gifts are
 * known to it alone; null in a replay):
 * `{order, roles, anti, gifts: [{kind, giver, receivers, card, state}]}`, or null in the first round.
 * Tribute gifts come in the payers' order, returns in the receivers' (the 1st player first).
 */
export function tributeStep(view, phase, {toAct = null, me = null, mine = null} = {}) {
  if (!view.previous_order) return null;
  const order = view.previous_order;
  const roles = tributeRoles(order);
  const step = {order, roles, anti: view.anti_tribute || null, gifts: []};
  if (step.anti) return step;
  const own = (kind, giver) => {
    const gift = mine && giver === me ? mine.find((action) => action[0] === kind) : undefined;
    return gift ? gift[2][0] : null;
  };
  if (view.tribute.length) {
    for (const [giver, receiver, card] of view.tribute) {
      step.gifts.push({kind: "tribute", giver, receivers: [receiver], card, state: "given"});
    }
  } else {
    roles.payers.forEach((giver, index) => step.gifts.push({kind: "tribute", giver,
      receivers: roles.double ? roles.receivers : [roles.receivers[0]], card: own("tribute", giver),
      state: giftState(index, roles.payers, phase, "tribute", toAct)}));
    return step;
  }
  if (view.back.length) {
    for (const [giver, receiver, card] of view.back) {
      step.gifts.push({kind: "back", giver, receivers: [receiver], card, state: "given"});
    }
    return step;
  }
  const returns = [...view.tribute].sort((a, b) => roles.receivers.indexOf(a[1]) - roles.receivers.indexOf(b[1]));
  const givers = returns.map(([, receiver]) => receiver);
  returns.forEach(([payer, receiver], index) => step.gifts.push({kind: "back", giver: receiver, receivers: [payer],
    card: own("back", receiver), state: giftState(index, givers, phase, "back", toAct)}));
  return step;
}

/** "Last round:" then each seat with its place (1st .. 4th), as separate texts (each one translated). */
function finishOrderElement(order, seatName) {
  return order.map((seat, place) => el("span", {class: "finish", dataset: {testid: "finish", seat: String(seat)}},
    el("span", {class: "finish-seat"}, seatName(seat)), " ", el("span", {class: "finish-place"}, PLACES[place]),
    place < order.length - 1 ? ", " : null));
}

function giftElement(gift, {me, live, seatName, view}) {
  const words = {given: null, sealed: "sealed", choosing: "choosing…", waiting: "waiting"};
  let status = words[gift.state];
  if (gift.state === "sealed" && gift.card) status = "sealed: only you see it";
  if (gift.state === "choosing" && live && gift.giver === me) status = "your turn: select the card below, then Play";
  const card = gift.card
    ? el("span", {class: "gift-face"}, cardElement(gift.card, face(gift.card, view), {size: "mini"}),
      el("span", {class: "gift-card", dataset: {testid: "gift-card"}}, cardText(gift.card)))
    : gift.state === "sealed" ? el("div", {class: "card card-mini back", title: "sealed"}) : null;
  const receivers = gift.receivers.flatMap((seat, i) => [i ? " / " : null,
    el("span", {class: "gift-receiver"}, seatName(seat))]);
  return el("li", {class: `gift gift-${gift.state}`, dataset: {testid: "gift", kind: gift.kind,
    giver: String(gift.giver), receiver: gift.receivers.join(" "), card: gift.card || "", state: gift.state}},
  el("span", {class: "gift-kind"}, gift.kind === "tribute" ? "Tribute" : "Return"),
  el("span", {class: "gift-giver"}, seatName(gift.giver)), el("span", {class: "arrow"}, "→"), receivers,
  card, status ? el("span", {class: "gift-status"}, status) : null);
}

/** The anti-tribute line: who held the big jokers, and that nobody pays. */
function antiWords(anti) {
  return anti.length === 1 ? "holds both big jokers: no tribute is paid." : "hold both big jokers: no tribute is paid.";
}

/**
 * The tribute and return panel, drawn at the centre of the felt from the deal of a round after the first
 * until its first play: the previous round's finish order, who pays whom with which card (face down while
 * sealed), who returns what to whom, or the anti-tribute that cancelled it.
 */
function tributePanel(view, phase, {me, seatName, toAct, mine}) {
  if (!view.previous_order || view.history.length > 0 || phase === "over") return null;
  const step = tributeStep(view, phase, {toAct, me, mine});
  const anti = step.anti;
  const rule = anti ? "The 1st leads."
    : step.roles.double ? "Double down: the 3rd and the 4th both pay; the higher card goes to the 1st."
      : "The 4th pays tribute to the 1st.";
  const tributes = step.gifts.filter((gift) => gift.kind === "tribute");
  const returns = step.gifts.filter((gift) => gift.kind === "back");
  const context = {me, live: Boolean(mine), seatName, view};
  return el("div", {class: "tribute-panel", dataset: {testid: "tribute-panel"}},
    el("div", {class: "tribute-title"}, anti ? "Anti-tribute" : "Tribute and return"),
    el("div", {class: "tribute-cause", dataset: {testid: "tribute-cause"}},
      el("span", {class: "finish-label"}, "Last round:"), finishOrderElement(step.order, seatName)),
    anti ? el("div", {class: "anti-tribute", dataset: {testid: "anti-tribute"}},
      anti.flatMap((seat, i) => [i ? " " : null, i ? el("span", {}, "and") : null, i ? " " : null,
        el("span", {class: "gift-giver"}, seatName(seat))]), " ", el("span", {}, antiWords(anti))) : null,
    el("div", {class: "tribute-rule"}, rule),
    tributes.length ? el("ol", {class: "gifts", dataset: {testid: "tributes"}},
      tributes.map((gift) => giftElement(gift, context))) : null,
    returns.length ? el("ol", {class: "gifts", dataset: {testid: "returns"}},
      returns.map((gift) => giftElement(gift, context))) : null,
    tributes.length && !returns.length ? el("div", {class: "tribute-rule"},
      "Then each receiver returns a card of 10 or lower.") : null);
}

/** The log's lines for the gifts made public since `previous` (at a live table): each tribute and return
 * with its card once its phase ends, and an anti-tribute when a round starts with one. */
function revealedLines(previous, view, {seatName}) {
  const sameRound = previous !== null && previous.round === view.round;
  const lines = [];
  if (!sameRound && view.anti_tribute) {
    lines.push(`Anti-tribute: ${view.anti_tribute.map(seatName).join(" and ")} ${antiWords(view.anti_tribute)}`);
  }
  for (const kind of ["tribute", "back"]) {
    const before = sameRound ? previous[kind].length : 0;
    for (const [giver, receiver, card] of view[kind].slice(before)) {
      lines.push(`${kind === "tribute" ? "Tribute" : "Return"}: ${seatName(giver)} → ${seatName(receiver)}: `
        + cardText(card));
    }
  }
  return lines;
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
    if (view.previous_order) rows.push(["Last round", finishOrderElement(view.previous_order, seatName), "last-round"]);
    return rows;
  },
  /** The rule in force; a gift names its receiver (of two tributes, the higher goes to the 1st). */
  prompt(phase, view, {me, seatName}) {
    if (phase === "tribute") {
      const {receivers: [first, second], double} = tributeRoles(view.previous_order);
      const to = double ? `${seatName(first)} or ${seatName(second)} (the higher of the two tributes goes to `
        + `${seatName(first)})` : seatName(first);
      return `Give a tribute card to ${to}: select your highest card that is not wild, then Play.`;
    }
    if (phase === "back") {
      const [payer] = view.tribute.find(([, receiver]) => receiver === me);
      return `Return a card (10 or lower) to ${seatName(payer)}, who paid you tribute, then Play.`;
    }
    const greater = view && view.greater;
    if (!greater || greater[0] === me) return "You lead: play any combination.";
    return `Beat ${actionLabel(greater[1])} with a higher ${humanType(greater[1][0]).toLowerCase()}, a bomb, or pass.`;
  },
  choiceButtons: () => [],
  centrePanel: tributePanel,
  revealedLines,
  /** The log's line for a gift still sealed (its phase is the update's). */
  sealedLabel: (phase) => `${phase === "back" ? "Return" : "Tribute"}: a sealed card`,
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
