// A game's rule variants as GET /api/games lists them (paiju.serve.variants): each with its options, default
// rules, agents, adviser and table bot; the classic rules are the game's own entry.

/** The variant of `gameInfo` whose options `rules` holds, as {name, label, ...its entry}; null for the classic
 * rules. */
export function variantOf(gameInfo, rules) {
  for (const [name, variant] of Object.entries((gameInfo && gameInfo.variants) || {})) {
    if (Object.entries(variant.rules).every(([key, value]) => rules && rules[key] === value)) return {name, ...variant};
  }
  return null;
}

/** The agents, adviser and table bot for a table of `gameInfo`'s game under `rules`. */
export function playersFor(gameInfo, rules) {
  const info = variantOf(gameInfo, rules) || gameInfo || {};
  return {agents: info.agents || [], adviser: info.adviser || null, tableBot: info.table_bot || null};
}

/** The label of a stored game's ruleset name (the variant's label, else the name itself); "" for the classic
 * rules. */
export function rulesetLabel(gameInfo, ruleset) {
  if (!ruleset) return "";
  const variant = ((gameInfo && gameInfo.variants) || {})[ruleset];
  return variant ? variant.label : ruleset;
}
