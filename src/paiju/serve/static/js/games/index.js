// The games the browser can draw, by the server's game name. Each module describes its game to the generic
// table, hand, counter and replay code with the same members:
//   title, ruleChoices {rule: [choices]}, ruleLabels {rule: {choice: label}} and lobbyRules {rule: value} (the
//   lobby's choice for people where it differs from the engine's default), canPass;
//   face(card, view) -> {rank, suit?, red, joker?, wild?, wildMark?, standsFor?, title}; handCards(obs hand) -> [card];
//   sortKey(card, view) (higher is drawn further left); cardsLeft(view, seat);
//   actionCards(action) -> [card] or null for a non-card choice (a bid); isPass(action); actionLabel(action);
//   logLabel(action) (optional: the action log's line, naming the cards);
//   readingLabel(action, view, context) (optional: a play in the words that tell it from the other legal plays of
//   the same cards, for the chooser and the hints: DouDizhu's 癞子 readings);
//   playFaces(action, view) -> [{card, face}] (optional: a play's cards drawn each with its face, e.g. a wild card
//   with what it stands for);
//   deck(view) and seenCards(view, me, hand) for the counter, counterRows(unseen, view) -> [[label, value]];
//   recentPlays(view, phase) -> Map seat -> {action, done?}; seatTags(view, seat, me) -> [{text, kind}];
//   info(view, context) -> [[label, text or element, testid]]; prompt(phase, view, context) (names the rule in force);
//   choiceButtons(phase, legal) -> [{action, label, testid}]; resultLines(result, context);
//   newDealNote(previous obs, obs, context) for the games dealt more than once (GuanDan rounds, a DouDizhu redeal).

import {doudizhu} from "./doudizhu.js";
import {gongzhu} from "./gongzhu.js";
import {guandan} from "./guandan.js";

export const GAMES = {doudizhu, guandan, gongzhu};

const PREFERRED_AGENTS = ["rules", "mr-if", "random"];

/** The agent a bot seat or the AI panel starts with: a quick heuristic player when the game has one. */
export function preferredAgent(agents) {
  return PREFERRED_AGENTS.find((name) => agents.includes(name)) || agents[0] || "";
}

/** The browser module of `name`; an unknown name is an error naming it. */
export function gameModule(name) {
  const game = GAMES[name];
  if (!game) throw new Error(`this page cannot draw the game ${JSON.stringify(name)}`);
  return game;
}
