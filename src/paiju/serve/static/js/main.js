// The page's router: #/ is the lobby, #/table/{id}/{seat} a live table, #/replay/{record id} the replay viewer,
// #/watch/{table id} the replay viewer following a table of bots alone while it plays.

import {api, tokens} from "./api.js";
import {el, fill} from "./dom.js";
import {startTranslation} from "./i18n.js";
import {Lobby} from "./lobby.js";
import {ReplayViewer} from "./replay.js";
import {LiveTable} from "./table.js";

const root = document.getElementById("app");
let gamesInfo = null;
let current = null;

function showError(text) {
  fill(root, el("section", {class: "panel"}, el("p", {class: "message error", dataset: {testid: "page-error"}}, text),
    el("a", {href: "#/", class: "button"}, "Back to the lobby")));
}

async function route() {
  if (current) current.dispose();
  current = null;
  if (gamesInfo === null) {
    try {
      gamesInfo = (await api.games()).games;
    } catch (error) {
      showError(`Cannot reach the arena: ${error.message}`);
      return;
    }
  }
  const parts = location.hash.replace(/^#\/?/, "").split("/").map(decodeURIComponent);
  if (parts[0] === "table" && parts.length === 3) {
    const seat = Number(parts[2]);
    const token = tokens.load(parts[1], seat);
    if (!token) {
      showError(`This browser holds no token for seat ${parts[2]} of table ${parts[1]}.`);
      return;
    }
    current = new LiveTable(root, {tableId: parts[1], seat, token, gamesInfo});
  } else if (parts[0] === "replay" && parts.length === 2) {
    current = new ReplayViewer(root, parts[1]);
  } else if (parts[0] === "watch" && parts.length === 2) {
    current = new ReplayViewer(root, parts[1], {live: true});
  } else {
    current = new Lobby(root, gamesInfo);
  }
}

window.addEventListener("hashchange", route);
startTranslation(document.body);
route();
