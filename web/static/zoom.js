// Zoom and pan for the board: the wheel (over the board), a pinch or a drag
// (pointer events), the buttons, and the keyboard (+ − 0 and the arrows while
// the board has the focus). The transform sits on a wrapper around the
// picture, so a redrawn position keeps the zoom while stepping.

const MIN = 1;
const MAX = 6;

export function clampZoom(scale) {
  return Math.min(MAX, Math.max(MIN, scale));
}

export class Zoom {
  constructor(board, wrapper, readout) {
    this.board = board;
    this.wrapper = wrapper;
    this.readout = readout;
    this.scale = 1;
    this.x = 0;
    this.y = 0;
    this.pointers = new Map();
    board.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
    board.addEventListener("pointerdown", (event) => this.down(event));
    board.addEventListener("pointermove", (event) => this.move(event));
    for (const name of ["pointerup", "pointercancel", "pointerleave"]) board.addEventListener(name, (event) => this.up(event));
    board.addEventListener("keydown", (event) => this.key(event));
  }

  apply() {
    const box = this.board.getBoundingClientRect();
    // The picture never leaves the board entirely.
    const spareX = (box.width * (this.scale - 1)) / 1;
    const spareY = (box.height * (this.scale - 1)) / 1;
    this.x = Math.min(0, Math.max(-spareX, this.x));
    this.y = Math.min(0, Math.max(-spareY, this.y));
    this.wrapper.style.transform = this.scale === 1 ? "" : `translate(${this.x}px, ${this.y}px) scale(${this.scale})`;
    this.board.classList.toggle("zoomed", this.scale > 1);
    if (this.readout) this.readout.textContent = `${Math.round(this.scale * 100)}%`;
  }

  // Zoom by `factor` around a point of the board (its centre by default).
  zoomBy(factor, clientX = null, clientY = null) {
    const box = this.board.getBoundingClientRect();
    const px = (clientX ?? box.left + box.width / 2) - box.left;
    const py = (clientY ?? box.top + box.height / 2) - box.top;
    const next = clampZoom(this.scale * factor);
    const ratio = next / this.scale;
    this.x = px - (px - this.x) * ratio;
    this.y = py - (py - this.y) * ratio;
    this.scale = next;
    this.apply();
  }

  reset() {
    this.scale = 1;
    this.x = 0;
    this.y = 0;
    this.apply();
  }

  panBy(dx, dy) {
    this.x += dx;
    this.y += dy;
    this.apply();
  }

  wheel(event) {
    event.preventDefault();
    this.zoomBy(event.deltaY < 0 ? 1.15 : 1 / 1.15, event.clientX, event.clientY);
  }

  down(event) {
    if (event.target.closest(".target, button")) return; // a click on a piece is a move, not a drag
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    this.moved = 0;
  }

  move(event) {
    const was = this.pointers.get(event.pointerId);
    if (!was) return;
    const now = { x: event.clientX, y: event.clientY };
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const other = a === was ? b : a;
      const before = Math.hypot(was.x - other.x, was.y - other.y);
      const after = Math.hypot(now.x - other.x, now.y - other.y);
      if (before > 0) this.zoomBy(after / before, (now.x + other.x) / 2, (now.y + other.y) / 2);
    } else if (this.scale > 1) {
      this.panBy(now.x - was.x, now.y - was.y);
    }
    this.pointers.set(event.pointerId, now);
  }

  up(event) {
    this.pointers.delete(event.pointerId);
  }

  key(event) {
    const step = 40;
    const keys = {
      "+": () => this.zoomBy(1.25),
      "=": () => this.zoomBy(1.25),
      "-": () => this.zoomBy(0.8),
      0: () => this.reset(),
      ArrowLeft: () => this.panBy(step, 0),
      ArrowRight: () => this.panBy(-step, 0),
      ArrowUp: () => this.panBy(0, step),
      ArrowDown: () => this.panBy(0, -step),
    };
    const act = keys[event.key];
    if (!act || (event.key.startsWith("Arrow") && this.scale === 1)) return;
    act();
    event.preventDefault();
    event.stopPropagation();
  }
}
