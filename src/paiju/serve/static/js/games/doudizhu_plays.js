// What a DouDizhu play is: its category, main rank and length, read as the engine reads it (paiju.games.doudizhu
// moves.py and wild.py), and said in words. A play is written as its cards ("5558"), and under the 癞子 rules,
// when a wild card stands for another rank, then "=" and the cards it stands for ("5558=5555": with 8 wild, the
// soft bomb of fives). Ranks are indices of ORDER: 3 is 0, the 2 is 12, the jokers 13 and 14.

export const ORDER = "3456789TJQKA2BR";
const HIGHEST_CHAIN_RANK = 11;
const JOKERS = [13, 14];

/** The engine's categories, by the same numbers. */
export const CATEGORY = {PASS: 0, SOLO: 1, PAIR: 2, TRIO: 3, TRIO_SOLO: 4, TRIO_PAIR: 5, SOLO_CHAIN: 6,
  PAIR_CHAIN: 7, PLANE: 8, PLANE_SOLOS: 9, PLANE_PAIRS: 10, FOUR_TWO_SOLOS: 11, FOUR_TWO_PAIRS: 12, BOMB: 13,
  ROCKET: 14};
const C = CATEGORY;
/** Bomb tiers: made with a wild card, four natural cards, the four cards of a wild rank. */
export const TIER = {SOFT: 0, HARD: 1, WILD: 2};

const LEAD_PREFERENCE = [C.ROCKET, C.BOMB, C.SOLO, C.PAIR, C.TRIO, C.SOLO_CHAIN, C.PAIR_CHAIN, C.PLANE,
  C.TRIO_SOLO, C.TRIO_PAIR, C.FOUR_TWO_SOLOS, C.FOUR_TWO_PAIRS, C.PLANE_SOLOS, C.PLANE_PAIRS];
const CHAIN_SHAPES = [[C.SOLO_CHAIN, 1, 5], [C.PAIR_CHAIN, 2, 3], [C.PLANE, 3, 2]];
const PLANE_KICKER_SHAPES = [[C.PLANE_SOLOS, 1, 5], [C.PLANE_PAIRS, 2, 4]];
const RANK_WORDS = {T: "10", B: "small joker", R: "big joker"};

/** A rank (index) as players say it. */
export function rankWord(rank) {
  const letter = ORDER[rank];
  return RANK_WORDS[letter] || letter;
}

/** The counts of each rank in `cards` (rank letters). */
export function countsOf(cards) {
  const counts = new Array(ORDER.length).fill(0);
  for (const card of cards) counts[ORDER.indexOf(card)] += 1;
  return counts;
}

/** A written play split into the cards played and those they stand for (the same when nothing substitutes). */
export function splitPlay(action) {
  const [cards, stands] = action.split("=");
  return {cards, stands: stands === undefined ? cards : stands};
}

/** Each substitution of a play as [wild card, the card it stands for], in rank order: "5558=5555" gives [["8", "5"]]. */
export function substitutions(action) {
  const {cards, stands} = splitPlay(action);
  const played = countsOf(cards);
  const meant = countsOf(stands);
  const given = [];
  const taken = [];
  for (let rank = 0; rank < ORDER.length; rank++) {
    for (let n = played[rank] - meant[rank]; n > 0; n--) given.push(ORDER[rank]);
    for (let n = meant[rank] - played[rank]; n > 0; n--) taken.push(ORDER[rank]);
  }
  return given.map((card, i) => [card, taken[i]]);
}

function soloKickersOk(kickers, rules) {
  if (kickers[13] && kickers[14] && !rules.rocket_as_kickers) return false;
  return Boolean(rules.bomb_as_kickers) || Math.max(...kickers) < 4;
}

function pairKickersOk(kickers, pairs, rules) {
  if (kickers[13] || kickers[14]) return false;
  const allowed = rules.bomb_as_kickers ? [2, 4] : [2];
  return kickers.every((n) => n === 0 || allowed.includes(n)) && kickers.reduce((a, b) => a + b, 0) === 2 * pairs;
}

function extendsPlane(kickers, low, length) {
  return [low - 1, low + length].some((r) => r >= 0 && r <= HIGHEST_CHAIN_RANK && kickers[r] === 3);
}

/** Every reading {category, rank, length} of the cards `counts`, canonical first (moves.interpretations). */
export function interpretations(counts, rules = {}) {
  const found = [];
  const size = counts.reduce((a, b) => a + b, 0);
  const present = counts.map((n, r) => r).filter((r) => counts[r]);
  const byCount = (c) => present.filter((r) => counts[r] === c);
  const add = (category, rank, length = 1) => found.push({category, rank, length});
  if (present.length === 1) add([C.SOLO, C.PAIR, C.TRIO, C.BOMB][size - 1], present[0]);
  if (size === 2 && counts[13] && counts[14]) add(C.ROCKET, 13);
  if (size === 4 && byCount(3).length === 1 && byCount(1).length === 1) add(C.TRIO_SOLO, byCount(3)[0]);
  if (size === 5 && byCount(3).length === 1 && byCount(2).length === 1) add(C.TRIO_PAIR, byCount(3)[0]);
  for (const [category, copies, minLength] of CHAIN_SHAPES) {
    const length = present.length;
    if (length >= minLength && present.every((r) => counts[r] === copies)
        && present[length - 1] <= HIGHEST_CHAIN_RANK && present[length - 1] - present[0] === length - 1) {
      add(category, present[0], length);
    }
  }
  if (!rules.no_four_with_two) {
    for (const four of byCount(4)) {
      const kickers = [...counts];
      kickers[four] = 0;
      if (size === 6 && soloKickersOk(kickers, rules)) add(C.FOUR_TWO_SOLOS, four);
      if (size === 8 && pairKickersOk(kickers, 2, rules)) add(C.FOUR_TWO_PAIRS, four);
    }
  }
  for (const [category, copies, maxLength] of PLANE_KICKER_SHAPES) {
    const length = Math.floor(size / (3 + copies));
    if (size % (3 + copies) || length < 2 || length > maxLength) continue;
    for (let low = HIGHEST_CHAIN_RANK - length + 1; low >= 0; low--) {
      const window = Array.from({length}, (_, i) => low + i);
      if (window.some((r) => counts[r] !== 3)) continue;
      const kickers = [...counts];
      for (const r of window) kickers[r] = 0;
      const ok = copies === 1 ? soloKickersOk(kickers, rules) && !extendsPlane(kickers, low, length)
        : pairKickersOk(kickers, length, rules);
      if (ok) add(category, low, length);
    }
  }
  return found.sort((a, b) => LEAD_PREFERENCE.indexOf(a.category) - LEAD_PREFERENCE.indexOf(b.category)
    || b.rank - a.rank);
}

/** The ranks of a reading's main part: all of a solo, pair, trio, bomb, chain or plane; the trio, four or
 * trios of a play with kickers. */
function mainRanks({category, rank, length}) {
  if (category === C.ROCKET) return JOKERS;
  return Array.from({length}, (_, i) => rank + i);
}

function tierOf(category, played, meant, wild) {
  if (category !== C.BOMB) return TIER.HARD;
  const allWild = played.every((n, r) => n === 0 || wild.includes(r));
  if (allWild) return TIER.WILD;
  return played.every((n, r) => n === meant[r]) ? TIER.HARD : TIER.SOFT;
}

function beats(reading, follow) {
  if (reading.category === C.ROCKET) return true;
  if (reading.category === C.BOMB) {
    return follow.category < C.BOMB || (follow.category === C.BOMB
      && (reading.tier > follow.tier || (reading.tier === follow.tier && reading.rank > follow.rank)));
  }
  return reading.category === follow.category && reading.length === follow.length && reading.rank > follow.rank;
}

/**
 * The reading {category, rank, length, tier} the engine gives the written play `action` leading (`follow`
 * null) or following the reading `follow`; `wild`: the wild ranks (indices); null when it reads as nothing that
 * may be played there. A wild card's substitutes lie in the main part; leading takes the canonical reading,
 * following the best that beats `follow` (its own category first, then the highest rank).
 */
export function readingOf(action, follow, wild = [], rules = {}) {
  const {cards, stands} = splitPlay(action);
  const played = countsOf(cards);
  const meant = countsOf(stands);
  const substituted = meant.map((n, r) => (n > played[r] ? r : -1)).filter((r) => r >= 0);
  const readings = interpretations(meant, rules)
    .filter((reading) => substituted.every((r) => mainRanks(reading).includes(r)))
    .map((reading) => ({...reading, tier: tierOf(reading.category, played, meant, wild)}));
  if (readings.length === 0) return null;
  if (follow === null) return readings[0];
  const beating = readings.filter((reading) => beats(reading, follow));
  if (beating.length === 0) return null;
  const key = (reading) => [reading.category === follow.category ? 1 : 0, reading.rank];
  return beating.reduce((best, reading) => {
    const [a, b] = [key(reading), key(best)];
    return a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]) ? reading : best;
  });
}

/** The wild ranks (indices) of an observation or a replay view: none before they are shown, or in the classic
 * game. */
export function wildRanks(view) {
  return [...((view && view.wild) || "")].map((card) => ORDER.indexOf(card));
}

/** The reading of the play to beat at the end of `history` ([[seat, play], ...]), or null when the next seat
 * leads: each play read after the one it followed, as the table read it. */
export function readingToBeat(history, wild = [], rules = {}) {
  let follow = null;
  let passes = 0;
  for (const [, action] of history || []) {
    if (typeof action !== "string") continue;
    if (action !== "") {
      follow = readingOf(action, follow, wild, rules) || follow;
      passes = 0;
    } else if (++passes === 2) {
      follow = null;
    }
  }
  return follow;
}

const BOMB_WORDS = ["soft bomb", "bomb", "wild bomb"];

function kickerWords(reading, meant, pairs) {
  const main = mainRanks(reading);
  const ranks = [];
  meant.forEach((n, r) => {
    if (main.includes(r)) return;
    for (let i = 0; i < (pairs ? n / 2 : n); i++) ranks.push(rankWord(r));
  });
  return ranks.join(" ");
}

function span({rank, length}) {
  return `${rankWord(rank)}–${rankWord(rank + length - 1)}`;
}

/** A reading in words: "trio of 5 + 8", "soft bomb of 5", "plane 3–4 + 7 9"; `action` gives the kickers. */
export function readingWords(reading, action) {
  const meant = countsOf(splitPlay(action).stands);
  const rank = rankWord(reading.rank);
  switch (reading.category) {
    case C.SOLO: return `solo ${rank}`;
    case C.PAIR: return `pair of ${rank}`;
    case C.TRIO: return `trio of ${rank}`;
    case C.TRIO_SOLO: return `trio of ${rank} + ${kickerWords(reading, meant, false)}`;
    case C.TRIO_PAIR: return `trio of ${rank} + pair of ${kickerWords(reading, meant, true)}`;
    case C.SOLO_CHAIN: return `solo chain ${span(reading)}`;
    case C.PAIR_CHAIN: return `pair chain ${span(reading)}`;
    case C.PLANE: return `plane ${span(reading)}`;
    case C.PLANE_SOLOS: return `plane ${span(reading)} + ${kickerWords(reading, meant, false)}`;
    case C.PLANE_PAIRS: return `plane ${span(reading)} + pairs of ${kickerWords(reading, meant, true)}`;
    case C.FOUR_TWO_SOLOS: return `four of ${rank} + ${kickerWords(reading, meant, false)}`;
    case C.FOUR_TWO_PAIRS: return `four of ${rank} + pairs of ${kickerWords(reading, meant, true)}`;
    case C.BOMB: return `${BOMB_WORDS[reading.tier]} of ${rank}`;
    case C.ROCKET: return "rocket";
    default: return "pass";
  }
}

/** What the wild cards of `action` stand for, in words: "8 as 5", "8 as 5 ×2, 8 as 6" ("" when none does). */
export function substitutionWords(action) {
  const counted = new Map();
  for (const [card, stands] of substitutions(action)) {
    const key = `${rankWord(ORDER.indexOf(card))} as ${rankWord(ORDER.indexOf(stands))}`;
    counted.set(key, (counted.get(key) || 0) + 1);
  }
  return [...counted].map(([words, n]) => (n > 1 ? `${words} ×${n}` : words)).join(", ");
}
