// The replay viewer: a finished game's frames (GET /api/records/{id}/frames), every hand face up, stepped
// forward and back with the buttons or the arrow keys, played automatically at a chosen speed, or jumped to
// from the move list; any seat can sit at the bottom.
// Live mode watches a table of bots alone while it plays (GET /api/tables/{id}/frames?since=N, polled every
// POLL_MS): new frames are appended, the view follows the newest unless the user stepped back, and when the
// table ends the viewer becomes that game's replay (its result at the end, the address #/replay/{record id}).

import {api} from "./api.js";
import {boardElement, infoElement} from "./board.js";
import {el, fill} from "./dom.js";
import {gameModule} from "./games/index.js";
import {resultElement} from "./result.js";

const SPEEDS = [0.5, 1, 2, 4];
const STEP_MS = 900;
const POLL_MS = 700;

export class ReplayViewer {
  /** `id`: a record id; with `live`, the id of a table of bots alone, watched while it plays. */
  constructor(root, id, {live = false} = {}) {
    this.live = live;
    this.tableId = live ? id : null;
    this.recordId = live ? null : id;
    this.step = 0;
    this.boardArea = el("div", {class: "board-area"}, el("p", {class: "waiting"}, "Loading the replay…"));
    this.infoArea = el("div", {class: "panel-body"});
    this.stepLabel = el("span", {class: "step", dataset: {testid: "replay-step"}});
    this.actionLabel = el("span", {class: "replay-action", dataset: {testid: "replay-action"}});
    this.resultArea = el("div", {class: "replay-result"});
    this.title = el("h1", {}, "Replay");
    this.liveBadge = el("span", {class: "live-badge", dataset: {testid: "live-badge"}, hidden: !live});
    const button = (testid, label, onclick) => el("button", {type: "button", dataset: {testid}, onclick}, label);
    this.buttons = [
      button("replay-start", "« Start", () => this.go(0)),
      button("replay-prev", "◀ Back", () => this.go(this.step - 1)),
      button("replay-next", "Forward ▶", () => this.go(this.step + 1)),
      button("replay-end", "End »", () => this.go(this.frames.length - 1)),
    ];
    this.me = 0;
    this.timer = null;
    this.autoButton = button("replay-play", "▶ Play", () => (this.timer === null ? this.play() : this.pause()));
    this.speedSelect = el("select", {dataset: {testid: "replay-speed"}, "aria-label": "replay speed",
      onchange: () => { if (this.timer !== null) { this.pause(); this.play(); } }},
    SPEEDS.map((speed) => el("option", {value: String(speed)}, `${speed}×`)));
    this.speedSelect.value = "1";
    this.seatSelect = el("select", {dataset: {testid: "replay-seat"}, "aria-label": "seat shown at the bottom",
      onchange: () => { this.me = Number(this.seatSelect.value); this.render(); }});
    this.moveList = el("ol", {class: "log replay-moves", dataset: {testid: "replay-moves"}});
    fill(root, el("section", {class: "replay-view", dataset: {testid: "replay-view"}},
      el("header", {class: "topbar"}, el("a", {href: "#/", class: "back"}, "← Lobby"), this.title,
        this.liveBadge),
      el("div", {class: "table-layout"},
        el("div", {class: "main-column"}, this.boardArea,
          el("div", {class: "controls replay-controls"}, el("div", {class: "buttons"}, this.buttons),
            el("div", {class: "buttons"}, this.autoButton, el("label", {}, "Speed ", this.speedSelect),
              el("label", {}, "Seen from ", this.seatSelect)),
            this.stepLabel, this.actionLabel),
          this.resultArea),
        el("aside", {class: "side"}, el("section", {class: "panel"}, el("h2", {}, "Table"), this.infoArea),
          el("section", {class: "panel"}, el("h2", {}, "Moves"), this.moveList)))));
    this.keyHandler = (event) => {
      const moves = {ArrowRight: this.step + 1, ArrowLeft: this.step - 1, Home: 0, End: Infinity};
      if (this.frames && event.key in moves) this.go(Math.min(moves[event.key], this.frames.length - 1));
    };
    window.addEventListener("keydown", this.keyHandler);
    this.poller = null;
    if (live) this.poll(); else this.load();
  }

  dispose() {
    this.pause();
    clearTimeout(this.poller);
    this.poller = null;
    this.disposed = true;
    window.removeEventListener("keydown", this.keyHandler);
  }

  /** Step forward every `STEP_MS` / speed until the end (from the start when at the end). */
  play() {
    if (!this.frames) return;
    if (this.step === this.frames.length - 1) this.go(0);
    this.timer = setInterval(() => {
      if (this.step >= this.frames.length - 1) this.pause();
      else this.go(this.step + 1);
    }, STEP_MS / Number(this.speedSelect.value));
    this.autoButton.textContent = "❚❚ Pause";
  }

  pause() {
    clearInterval(this.timer);
    this.timer = null;
    this.autoButton.textContent = "▶ Play";
  }

  async load() {
    try {
      const [replay, record] = await Promise.all([api.frames(this.recordId), api.record(this.recordId)]);
      this.begin(replay.game, replay.seats);
      this.addFrames(replay.frames);
      this.result = record.result;
      this.title.textContent = `${this.game.title} replay · ${this.recordId}`;
      this.render();
    } catch (error) {
      fill(this.boardArea, el("p", {class: "message error", dataset: {testid: "replay-error"}}, error.message));
    }
  }

  /** Live mode: fetch the frames made since the last poll, append them, and poll again unless the table ended. */
  async poll() {
    let update;
    try {
      update = await api.tableFrames(this.tableId, this.frames ? this.frames.length : 0);
    } catch (error) {
      if (this.disposed) return;
      if (!this.frames) {
        fill(this.boardArea, el("p", {class: "message error", dataset: {testid: "replay-error"}}, error.message));
        this.showLive(error.message.startsWith("403") ? "Hidden" : "Not found");
        return;
      }
      this.poller = setTimeout(() => this.poll(), POLL_MS * 3);  // a dropped poll: try again a little later
      return;
    }
    if (this.disposed) return;
    const following = !this.frames || this.step === this.frames.length - 1;
    if (!this.frames) {
      this.begin(update.game, update.seats);
      this.title.textContent = `${this.game.title} · ${this.tableId}`;
    }
    this.addFrames(update.frames);
    if (update.status === "finished" && update.record_id) {
      await this.finish(update.record_id);
      if (this.disposed) return;
    } else if (update.status === "aborted") {
      this.ended = true;
      this.showLive("Stopped");
    } else {
      this.showLive("Live");
      this.poller = setTimeout(() => this.poll(), POLL_MS);
    }
    const moved = following && this.frames.length - 1 > this.step;
    if (following) this.step = this.frames.length - 1;
    this.render(moved ? this.frames[this.step].seat : null);
    if (following) this.moveList.scrollTop = this.moveList.scrollHeight;
  }

  /** The watched table has ended and its game is stored: from now on this is that game's replay. */
  async finish(recordId) {
    this.ended = true;
    this.recordId = recordId;
    try {
      this.result = (await api.record(recordId)).result;
    } catch (error) {
      this.result = null;
    }
    this.title.textContent = `${this.game.title} replay · ${recordId}`;
    this.showLive("Finished");
    if (!this.disposed) history.replaceState(null, "", `#/replay/${encodeURIComponent(recordId)}`);
  }

  showLive(text) {
    this.liveBadge.textContent = text;
    this.liveBadge.dataset.state = text.toLowerCase().replace(" ", "-");
  }

  /** The game and seats of the frames to come: no frames yet, the seat choice filled. */
  begin(gameName, seats) {
    this.game = gameModule(gameName);
    this.frames = [];
    this.seatNames = seats;
    fill(this.seatSelect, seats.map((_, seat) => el("option", {value: String(seat)}, this.seatName(seat))));
  }

  /** Append frames and their entries in the move list (each jumps to its frame). */
  addFrames(frames) {
    this.frames.push(...frames);
    this.moveList.append(...frames.filter((frame) => frame.step > 0).map((frame) => el("li", {
      class: "replay-move", dataset: {testid: "replay-move"}, onclick: () => this.go(frame.step)},
    `${this.seatName(frame.seat)}: ${this.game.actionLabel(frame.action)}`)));
  }

  seatName(seat) {
    return `Seat ${seat} · ${this.seatNames[seat]}`;
  }

  go(step) {
    if (!this.frames) return;
    this.step = Math.max(0, Math.min(step, this.frames.length - 1));
    this.render();
  }

  /** Draw the current frame, the seat to act marked (at a watched table's newest frame, the seat thinking now);
   * `fresh`: the seat whose move has just arrived (it slides in from that seat). */
  render(fresh = null) {
    const frame = this.frames[this.step];
    const next = this.frames[this.step + 1];
    const view = frame.view;
    const seatName = (seat) => this.seatName(seat);
    fill(this.boardArea, boardElement({
      game: this.game, view, phase: frame.phase, me: this.me, seatCount: this.seatNames.length, seatName,
      hands: view.hands.map((hand) => this.game.handCards(hand)), toAct: frame.to_act,
      turnText: next ? "next" : "thinking…", centre: next || (this.live && !this.ended) ? "" : "Game over", fresh,
    }));
    fill(this.infoArea, infoElement(this.game, view, {me: this.me, seatName}));
    this.moveList.querySelectorAll("li").forEach((item, index) => item.classList.toggle("current", index + 1 === this.step));
    this.stepLabel.textContent = `Step ${this.step} of ${this.frames.length - 1}`;
    this.actionLabel.textContent = frame.seat === null
      ? "The deal" : `${seatName(frame.seat)}: ${this.game.actionLabel(frame.action)}`;
    const last = this.frames.length - 1;
    this.buttons.forEach((button, i) => { button.disabled = i < 2 ? this.step === 0 : this.step === last; });
    fill(this.resultArea, this.step === last && this.result
      ? resultElement(this.game, this.result, {me: null, seatName, recordId: null}) : null);
  }
}
