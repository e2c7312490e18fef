// The player's own hand: click a card to select or deselect it, or drag across several cards.

import {cardElement} from "./cards.js";
import {el, fill} from "./dom.js";

/** Pixels each card hides of the one before: a short hand is spread out, a long one packed. */
function overlap(count) {
  return count <= 13 ? -6 : count <= 20 ? -22 : -28;
}

export class HandView {
  /** `onChange(selectedIndices)` runs after every change the player makes. */
  constructor(container, onChange) {
    this.container = container;
    this.onChange = onChange;
    this.cards = [];
    this.selected = new Set();
    this.dragValue = null;
    this.endDrag = () => { this.dragValue = null; };
    window.addEventListener("pointerup", this.endDrag);
  }

  dispose() {
    window.removeEventListener("pointerup", this.endDrag);
  }

  /** Draw `cards` (already sorted); the selection survives only when the hand is unchanged. */
  show(cards, faceOf, interactive) {
    if (JSON.stringify(cards) !== JSON.stringify(this.cards)) this.selected = new Set();
    this.cards = cards;
    this.interactive = interactive;
    const nodes = cards.map((card, index) => {
      const node = cardElement(card, faceOf(card), {size: "hand", index, selected: this.selected.has(index)});
      node.addEventListener("pointerdown", (event) => { event.preventDefault(); this.startDrag(index); });
      node.addEventListener("pointerenter", () => this.dragOver(index));
      return node;
    });
    fill(this.container, el("div", {class: `hand${interactive ? " interactive" : ""}`, dataset: {testid: "hand"},
      style: `--overlap: ${overlap(cards.length)}px`}, nodes));
  }

  startDrag(index) {
    if (!this.interactive) return;
    this.dragValue = !this.selected.has(index);
    this.set(index, this.dragValue);
    this.onChange(this.selected);
  }

  dragOver(index) {
    if (this.dragValue === null || !this.interactive) return;
    this.set(index, this.dragValue);
    this.onChange(this.selected);
  }

  set(index, value) {
    if (value) this.selected.add(index);
    else this.selected.delete(index);
    const node = this.container.querySelector(`[data-index="${index}"]`);
    if (node) node.classList.toggle("selected", value);
  }

  /** Replace the selection (Hint, an AI suggestion) without calling onChange. */
  select(indices) {
    for (let i = 0; i < this.cards.length; i++) this.set(i, indices.has(i));
  }

  /** Dim every card not in `playable` (a Set of indices; null: dim none). */
  dim(playable) {
    this.container.querySelectorAll("[data-index]").forEach((node) => {
      node.classList.toggle("dim", playable !== null && !playable.has(Number(node.dataset.index))
        && !this.selected.has(Number(node.dataset.index)));
    });
  }

  selectedCards() {
    return [...this.selected].sort((a, b) => a - b).map((i) => this.cards[i]);
  }
}
