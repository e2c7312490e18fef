// A live table seen from one seat: the seat's websocket (protocol v1 with update, explain and error, see
// paiju.serve), the felt, the hand and its controls, the card counter, the AI panel and the result screen.
// Everything drawn comes from this seat's own messages: no other hand is ever known here.

import {api, seatSocketUrl, tokens} from "./api.js";
import {boardElement, infoElement, sortedHand} from "./board.js";
import {removeCards} from "./cards.js";
import {el, fill} from "./dom.js";
import {gameModule, preferredAgent} from "./games/index.js";
import {HandView} from "./hand.js";
import {extendable, hintOrder, indicesOf, matchingActions} from "./matching.js";
import {resultElement} from "./result.js";
import {playersFor} from "./variants.js";

const RECONNECT_MS = 1000;
const LOG_LENGTH = 40;

/** How a seat is called at a live table: "You", or "Seat 2 · rules". */
function seatNamer(seats, me) {
  return (seat) => {
    if (seat === me) return "You";
    const info = seats.find((entry) => entry.seat === seat) || {};
    const who = info.agent || (info.kind === "human" ? "person" : info.kind);
    return who ? `Seat ${seat} · ${who}` : `Seat ${seat}`;
  };
}

/** Milliseconds after a play arrives during which a redraw still slides it in (a redraw right after an update). */
const FRESH_MS = 400;

/** A candidate's value with three decimals; values equal to that precision print equally (-8.88e-16 is 0.000). */
export function formatScore(score) {
  const rounded = Math.round(Number(score) * 1000) / 1000;
  return (rounded === 0 ? 0 : rounded).toFixed(3);
}

export class LiveTable {
  constructor(root, {tableId, seat, token, gamesInfo}) {
    this.tableId = tableId;
    this.me = seat;
    this.token = token;
    this.gamesInfo = gamesInfo;
    this.game = null;
    this.seats = [];
    this.obs = null;
    this.phase = null;
    this.toAct = null;
    this.deal = null;
    this.legal = null;
    this.deadlineAt = null;
    this.sent = false;
    this.asking = false;
    this.candidates = null;
    this.advice = null;
    this.adviceAsked = false;
    this.freshSeat = null;
    this.freshAt = 0;
    this.hintIndex = 0;
    this.choices = [];
    this.intended = null;
    this.note = "";
    this.log = [];
    this.mine = [];
    this.result = null;
    this.recordId = null;
    this.resultHidden = false;
    this.showCounter = false;
    this.disposed = false;
    this.build(root);
    this.clock = setInterval(() => this.tick(), 250);
    this.connect();
  }

  build(root) {
    this.status = el("span", {class: "connection", dataset: {testid: "connection"}}, "connecting…");
    this.title = el("h1", {}, "Table");
    this.boardArea = el("div", {class: "board-area"});
    this.prompt = el("div", {class: "prompt", dataset: {testid: "prompt"}});
    this.messageLine = el("div", {class: "message", dataset: {testid: "message"}, role: "status"});
    this.choiceArea = el("div", {class: "choices"});
    this.handArea = el("div", {class: "hand-area"});
    this.hand = new HandView(this.handArea, () => this.selectionChanged());
    this.playButton = el("button", {type: "button", class: "primary", dataset: {testid: "play"},
      onclick: () => this.play()}, "Play");
    this.passButton = el("button", {type: "button", dataset: {testid: "pass"}, onclick: () => this.pass()}, "Pass");
    this.hintButton = el("button", {type: "button", dataset: {testid: "hint"}, onclick: () => this.hint()}, "Hint");
    this.clearButton = el("button", {type: "button", dataset: {testid: "clear"},
      onclick: () => this.clearSelection()}, "Clear");
    this.infoArea = el("div", {class: "panel-body"});
    this.counterArea = el("div", {class: "counter-area"});
    this.counterToggle = el("button", {type: "button", dataset: {testid: "counter-toggle"},
      onclick: () => { this.showCounter = !this.showCounter; this.renderCounter(); }}, "Card counter");
    this.agentSelect = el("select", {dataset: {testid: "ai-agent"}, "aria-label": "agent to ask"});
    this.askButton = el("button", {type: "button", dataset: {testid: "ai-ask"}, onclick: () => this.ask()}, "Ask");
    this.candidateList = el("ol", {class: "candidates", dataset: {testid: "ai-candidates"}});
    this.scaleLine = el("p", {class: "scale", dataset: {testid: "ai-scale"}});
    this.logList = el("ol", {class: "log", dataset: {testid: "log"}});
    this.overlay = el("div", {class: "overlay", hidden: true});
    this.section = el("section", {class: "table-view", dataset: {testid: "table-view"}},
      el("header", {class: "topbar"}, el("a", {href: "#/", class: "back"}, "← Lobby"), this.title, this.status),
      el("div", {class: "table-layout"},
        el("div", {class: "main-column"}, this.boardArea,
          el("div", {class: "controls"}, this.prompt, this.choiceArea,
            el("div", {class: "buttons"}, this.hintButton, this.clearButton, this.passButton, this.playButton),
            this.messageLine),
          this.handArea),
        el("aside", {class: "side"},
          el("section", {class: "panel"}, el("h2", {}, "Table"), this.infoArea),
          el("section", {class: "panel"}, el("h2", {}, "Cards not seen"), this.counterToggle, this.counterArea),
          el("section", {class: "panel"}, el("h2", {}, "Ask an AI"),
            el("div", {class: "ask-row"}, this.agentSelect, this.askButton), this.candidateList, this.scaleLine),
          el("section", {class: "panel"}, el("h2", {}, "Moves"), this.logList))),
      this.overlay);
    fill(root, this.section);
    this.keyHandler = (event) => {
      if (event.target !== document.body || !this.myTurn() || event.ctrlKey || event.metaKey || event.altKey) return;
      if (this.onKey(event.key)) event.preventDefault();
    };
    window.addEventListener("keydown", this.keyHandler);
  }

  /** Keyboard play: a rank key (3-9, 0 or T for 10, J, Q, K, A, 2, B and R for the DouDizhu jokers) selects
   * the next card of that rank, then clears them all; Enter plays, P passes, H hints, Escape clears. */
  onKey(key) {
    const command = {Enter: () => this.play(), Escape: () => this.clearSelection(), p: () => this.pass(),
                     P: () => this.pass(), h: () => this.hint(), H: () => this.hint()}[key];
    if (command) {
      command();
      return true;
    }
    const rank = key === "0" || key === "t" ? "T" : key.toUpperCase();
    const ranked = this.hand.cards.map((card, index) => [this.rankKey(card), index]).filter(([r]) => r === rank);
    if (key.length !== 1 || ranked.length === 0) return false;
    const next = ranked.find(([, index]) => !this.hand.selected.has(index));
    if (next) this.hand.set(next[1], true);
    else for (const [, index] of ranked) this.hand.set(index, false);
    this.selectionChanged();
    return true;
  }

  /** The player changed the selection: a chooser, a message or a suggested play no longer applies. */
  selectionChanged() {
    this.choices = [];
    this.intended = null;
    this.say("");
    this.renderControls();
  }

  /** The key that selects `card`: its rank as the card shows it, 10 as T; a joker by its own letter. */
  rankKey(card) {
    const face = this.game.face(card, this.obs);
    if (face.joker) return card.slice(-1).toUpperCase();
    return face.rank === "10" ? "T" : String(face.rank).toUpperCase();
  }

  clearSelection() {
    this.hand.select(new Set());
    this.selectionChanged();
  }

  dispose() {
    this.disposed = true;
    clearInterval(this.clock);
    clearTimeout(this.retry);
    window.removeEventListener("keydown", this.keyHandler);
    this.hand.dispose();
    if (this.socket) this.socket.close();
  }

  connect() {
    const socket = new WebSocket(seatSocketUrl(this.tableId, this.token));
    this.socket = socket;
    socket.onopen = () => this.setStatus("connected", "ok");
    socket.onmessage = (event) => this.receive(JSON.parse(event.data));
    socket.onclose = (event) => {
      if (this.disposed || socket !== this.socket) return;
      if (event.code === 1008) {
        this.setStatus(`refused: ${event.reason || "this seat's token was not accepted"}`, "bad");
      } else if (this.result) {
        this.setStatus("game over", "ok");
      } else {
        this.setStatus("reconnecting…", "bad");
        this.retry = setTimeout(() => this.connect(), RECONNECT_MS);
      }
    };
  }

  setStatus(text, kind) {
    this.status.textContent = text;
    this.status.className = `connection ${kind}`;
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Messages of other types (start, pong) change nothing on the page: each update carries the whole view. */
  receive(message) {
    const handler = {
      welcome: () => this.onWelcome(message),
      update: () => this.onUpdate(message),
      act: () => this.onAct(message),
      end: () => this.onEnd(message),
      explain: () => this.onExplain(message),
      error: () => this.onError(message),
    }[message.type];
    if (handler) handler();
  }

  onWelcome(message) {
    this.gameName = message.game;
    this.rules = message.rules;
    this.game = gameModule(message.game);
    const {agents, adviser} = playersFor(this.gamesInfo[message.game], message.rules);
    this.adviser = adviser;
    this.seats = message.seats;
    this.seatName = seatNamer(this.seats, this.me);
    this.title.textContent = `${this.game.title} · table ${this.tableId} · seat ${this.me}`;
    const current = this.agentSelect.value;
    fill(this.agentSelect, agents.map((name) => el("option", {value: name}, name)));
    this.agentSelect.value = current || preferredAgent(agents);
    this.render();
  }

  onUpdate(message) {
    const previous = this.obs;
    const newDeal = previous !== null && message.deal !== this.deal;
    this.obs = message.obs;
    this.phase = message.phase;
    this.toAct = message.to_act;
    this.deal = message.deal;
    if (message.last) this.addLog(message.last.seat, message.last.action);
    this.freshSeat = message.last ? message.last.seat : null;
    this.freshAt = Date.now();
    if (newDeal) {
      this.note = this.game.newDealNote ? this.game.newDealNote(previous, this.obs, this.context()) : "";
      this.log.unshift(`— deal ${this.deal + 1} —`);
      this.mine = [];
    } else if (message.last && message.last.seat === this.me && message.last.action !== null) {
      this.mine.push(message.last.action);
    }
    // Cards the rules had sealed (GuanDan's tribute and return) and made public with this update.
    const revealed = this.game.revealedLines ? this.game.revealedLines(previous, this.obs, this.context()) : [];
    for (const line of revealed) this.log.unshift(line);
    this.log.length = Math.min(this.log.length, LOG_LENGTH);
    if (this.toAct !== this.me) {
      this.legal = null;
      this.deadlineAt = null;
    }
    this.render();
  }

  onAct(message) {
    this.obs = message.obs;
    this.phase = message.phase;
    this.toAct = this.me;
    this.legal = message.legal;
    this.deadlineAt = Date.now() + message.deadline * 1000;
    this.sent = false;
    this.candidates = null;
    this.advice = null;
    this.adviceAsked = false;
    this.hintIndex = 0;
    this.choices = [];
    this.intended = null;
    fill(this.candidateList);
    this.scaleLine.textContent = "";
    this.say("");
    this.render();
  }

  onEnd(message) {
    this.result = message.result;
    this.recordId = message.record_id;
    this.revealed = null;
    api.record(message.record_id).then((record) => {
      const deal = record.deals[record.deals.length - 1];
      this.revealed = deal.hands.map((hand) => sortedHand(this.game, this.game.handCards(hand), this.obs));
      this.renderResult();
    }).catch(() => {});
    this.legal = null;
    this.toAct = null;
    this.deadlineAt = null;
    this.resultHidden = false;
    this.render();
  }

  /** The server refused our last message and changed nothing: the decision (or the question) is open again. */
  onError(message) {
    this.sent = false;
    if (this.asking) fill(this.candidateList);
    if (this.advice === null) this.adviceAsked = false;
    this.asking = false;
    this.render();
    this.say(message.message, "error");
  }

  onExplain(message) {
    this.asking = false;
    this.candidates = message.candidates;
    this.hintIndex = 0;
    if (this.adviceAsked && this.advice === null && message.agent === this.adviser) {
      this.advice = message.candidates;
      if (this.myTurn()) this.hint();
    }
    fill(this.candidateList, message.candidates.map((candidate) => el("li", {
      class: "candidate", dataset: {testid: "candidate"}, onclick: () => this.takeSuggestion(candidate.action),
    }, el("span", {class: "candidate-label"}, this.game.actionLabel(candidate.action)),
    el("span", {class: "score"}, formatScore(candidate.score)))));
    if (message.candidates.length === 0) fill(this.candidateList, el("li", {}, "no suggestion"));
    this.scaleLine.textContent = message.scale ? `${message.agent}'s values: ${message.scale}` : "";
  }

  context() {
    return {me: this.me, seatName: this.seatName, deal: this.deal, rules: this.rules || {}};
  }

  /** A legal action in the words the player chooses by: the game's reading of it where it has one. */
  choiceLabel(action) {
    return this.game.readingLabel ? this.game.readingLabel(action, this.obs, this.context())
      : this.game.actionLabel(action);
  }

  myTurn() {
    return this.legal !== null && !this.sent && this.result === null;
  }

  addLog(seat, action) {
    // null: an action the rules keep from this seat for now (a GuanDan gift before its phase ends)
    const sealed = this.game.sealedLabel ? this.game.sealedLabel(this.phase) : "chose a sealed card";
    const label = action === null ? sealed : (this.game.logLabel || this.game.actionLabel)(action);
    this.log.unshift(`${this.seatName(seat)}: ${label}`);
    this.log.length = Math.min(this.log.length, LOG_LENGTH);
  }

  say(text, kind = "") {
    this.messageLine.textContent = text;
    this.messageLine.className = `message ${kind}`;
  }

  handCards() {
    return sortedHand(this.game, this.game.handCards(this.obs.hand), this.obs);
  }

  render() {
    if (!this.game) return;
    if (!this.obs) {
      fill(this.boardArea, el("div", {class: "waiting", dataset: {testid: "waiting"}},
        el("h2", {}, "Waiting for every seat to be taken"),
        el("ul", {}, this.seats.map((seat) => el("li", {}, this.seatName(seat.seat))))));
      this.renderControls();
      return;
    }
    const view = this.obs;
    this.section.dataset.phase = this.phase;
    fill(this.boardArea, boardElement({
      game: this.game, view, phase: this.phase, me: this.me, seatCount: this.seats.length, seatName: this.seatName,
      hands: this.seats.map((seat) => (seat.seat === this.me ? undefined : null)), toAct: this.toAct,
      turnText: this.toAct === this.me ? this.clockText() : "thinking…", centre: this.centreText(),
      fresh: Date.now() - this.freshAt < FRESH_MS ? this.freshSeat : null, mine: this.mine,
    }));
    this.hand.show(this.handCards(), (card) => this.game.face(card, view), this.myTurn());
    fill(this.infoArea, infoElement(this.game, view, this.context()));
    fill(this.logList, this.log.map((line) => el("li", {}, line)));
    this.renderCounter();
    this.renderControls();
    this.renderResult();
  }

  centreText() {
    if (this.result) return "Game over";
    return this.note;
  }

  clockText() {
    if (this.deadlineAt === null) return "your turn";
    return `your turn · ${Math.max(0, Math.ceil((this.deadlineAt - Date.now()) / 1000))} s`;
  }

  tick() {
    const clock = document.getElementById("turn-clock");
    if (clock && this.toAct === this.me) clock.textContent = this.clockText();
  }

  renderControls() {
    const active = this.myTurn();
    const legal = this.legal || [];
    const hasPass = legal.some((action) => this.game && this.game.isPass(action));
    this.prompt.textContent = active ? this.game.prompt(this.phase, this.obs, this.context()) : this.waitingText();
    const cardPlays = active && legal.some((action) => (this.game.actionCards(action) || []).length > 0);
    this.hand.dim(cardPlays ? extendable(this.game, legal, this.hand.cards, this.hand.selected) : null);
    this.playButton.disabled = !active;
    this.passButton.disabled = !(active && hasPass);
    this.passButton.hidden = Boolean(this.game && !this.game.canPass);
    this.hintButton.disabled = !active;
    this.clearButton.disabled = !active;
    this.askButton.disabled = !active;
    const buttons = active && this.game ? this.game.choiceButtons(this.phase, legal) : [];
    fill(this.choiceArea,
      buttons.map((choice) => el("button", {type: "button", class: "choice-button", dataset: {testid: choice.testid},
        onclick: () => this.submit(choice.action)}, choice.label)),
      this.choices.map((action) => el("button", {type: "button", class: "choice-button",
        dataset: {testid: "choice", action: typeof action === "string" ? action : JSON.stringify(action)},
        title: this.game.actionLabel(action), onclick: () => this.submit(action)}, this.choiceLabel(action))));
  }

  waitingText() {
    if (!this.game || !this.obs) return "Waiting for the game to start.";
    if (this.result) return "The game is over.";
    if (this.sent) return "Sent.";
    return this.toAct === null ? "" : `Waiting for ${this.seatName(this.toAct)}.`;
  }

  renderCounter() {
    this.counterToggle.textContent = this.showCounter ? "Hide the card counter" : "Show the card counter";
    if (!this.showCounter || !this.obs) {
      fill(this.counterArea);
      return;
    }
    const unseen = removeCards(this.game.deck(this.obs),
      this.game.seenCards(this.obs, this.me, this.game.handCards(this.obs.hand)));
    fill(this.counterArea, el("table", {class: "counter", dataset: {testid: "counter"}},
      el("tbody", {}, this.game.counterRows(unseen, this.obs).map(([label, value]) =>
        el("tr", {}, el("th", {}, label), el("td", {dataset: {testid: "counter-value"}}, String(value)))))));
  }

  renderResult() {
    if (!this.result || this.resultHidden) {
      this.overlay.hidden = true;
      return;
    }
    this.overlay.hidden = false;
    fill(this.overlay, resultElement(this.game, this.result, {
      me: this.me, seatName: this.seatName, recordId: this.recordId,
      onClose: () => { this.resultHidden = true; this.renderResult(); },
      hands: this.revealed, faceOf: (card) => this.game.face(card, this.obs),
      onPlayAgain: () => this.playAgain(),
    }));
  }

  /** A new table of the same game and rules: you in your seat, the same bots in theirs, other people's seats
   * open (a new random deal). */
  async playAgain() {
    const seats = this.seats.map((seat) => (seat.seat === this.me ? "human" : seat.kind === "bot" ? seat.agent : "open"));
    try {
      const table = await api.createTable({game: this.gameName, rules: this.rules, seats});
      for (const seat of table.seats) if (seat.token) tokens.save(table.table_id, seat.seat, seat.token);
      location.hash = `#/table/${encodeURIComponent(table.table_id)}/${this.me}`;
    } catch (error) {
      this.say(`A new table could not be made: ${error.message}`, "error");
    }
  }

  submit(action) {
    if (!this.myTurn()) return;
    this.sent = true;
    this.choices = [];
    this.intended = null;
    this.note = "";
    this.send({action});
    this.say("");
    this.renderControls();
    this.hand.show(this.hand.cards, (card) => this.game.face(card, this.obs), false);
  }

  play() {
    const selected = this.hand.selectedCards();
    if (selected.length === 0) {
      this.say("Select the cards to play first.", "error");
      return;
    }
    const matches = matchingActions(this.game, this.legal, selected);
    const intended = matches.find((action) => JSON.stringify(action) === JSON.stringify(this.intended));
    if (intended !== undefined) {
      this.submit(intended);  // the play a hint or a suggestion selected, read as it was named
    } else if (matches.length === 1) {
      this.submit(matches[0]);
    } else if (matches.length > 1) {
      this.choices = matches;
      this.say("These cards can be played in several ways: choose one.");
      this.renderControls();
    } else {
      const rule = this.game.prompt(this.phase, this.obs, this.context());
      this.say(`${selected.join(" ")} is not a legal play here. ${rule}`, "error");
    }
  }

  pass() {
    const pass = (this.legal || []).find((action) => this.game.isPass(action));
    if (pass !== undefined) this.submit(pass);
  }

  /** Hint: the move the strongest offered agent (the game's adviser) would make, asked once per decision;
   * pressing Hint again steps through its next best moves, then the other legal plays. */
  hint() {
    if (!this.myTurn()) return;
    if (this.adviser && this.advice === null) {
      if (!this.adviceAsked) {
        this.adviceAsked = true;
        this.asking = true;
        fill(this.candidateList, el("li", {}, "thinking…"));
        this.send({type: "explain", agent: this.adviser});
      }
      this.say(`Asking ${this.adviser} for a hint…`);
      return;
    }
    const best = this.advice && this.advice[this.hintIndex];
    if (best && (this.game.actionCards(best.action) === null || this.game.isPass(best.action))) {
      this.hintIndex += 1;
      this.hand.select(new Set());
      this.choices = [];
      this.renderControls();
      this.say(`Hint from ${this.adviser}: ${this.choiceLabel(best.action)}`);
      return;
    }
    const plays = hintOrder(this.game, this.legal, this.advice || this.candidates);
    if (plays.length === 0) {
      this.say(this.legal.some((action) => this.game.isPass(action))
        ? "Nothing here beats the last play: pass." : "Choose one of the buttons above.");
      return;
    }
    const action = plays[this.hintIndex % plays.length];
    this.hintIndex += 1;
    this.selectAction(action);
    const from = this.advice ? ` from ${this.adviser}` : "";
    this.say(`Hint${from} ${((this.hintIndex - 1) % plays.length) + 1} of ${plays.length}: ${this.choiceLabel(action)}`);
  }

  /** Select the cards of `action`; Play then plays that very action, however else the cards read. */
  selectAction(action) {
    const indices = indicesOf(this.hand.cards, this.game.actionCards(action));
    if (indices) this.hand.select(indices);
    this.choices = [];
    this.intended = indices ? action : null;
    this.renderControls();
  }

  takeSuggestion(action) {
    if (!this.myTurn()) return;
    const cards = this.game.actionCards(action);
    if (cards === null || this.game.isPass(action)) {
      this.hand.select(new Set());
      this.say(`Suggested: ${this.game.actionLabel(action)}`);
      return;
    }
    this.selectAction(action);
    this.say(`Suggested: ${this.choiceLabel(action)} (press Play to play it)`);
  }

  ask() {
    if (!this.myTurn()) return;
    this.asking = true;
    fill(this.candidateList, el("li", {}, "thinking…"));
    this.send({type: "explain", agent: this.agentSelect.value});
  }
}
