// The board as SVG, drawn from what the API says of it: its files and ranks,
// the names of its squares and the pieces on them. Nothing here knows the
// board's size or the piece types in advance: a type without a picture is
// drawn as its letter.

const SVG = "http://www.w3.org/2000/svg";
const S = 64;            // one square, in SVG units
const MARGIN = 22;       // room for the file letters and rank numbers

// the chess glyphs: a filled one for the body, an outlined one on top for White
// (U+FE0E asks for the glyph as text, not as an emoji)
const FILLED = {king: "\u265A", queen: "\u265B", rook: "\u265C", bishop: "\u265D",
                knight: "\u265E", pawn: "\u265F\uFE0E"};
const OUTLINE = {king: "\u2654", queen: "\u2655", rook: "\u2656", bishop: "\u2657",
                 knight: "\u2658", pawn: "\u2659"};

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

export class Board {
  // svg: the <svg> element; onMove(from, to): a piece dropped on another
  // square; onSelect(square): a piece picked up; onHover(square or null)
  constructor(svg, {onMove, onSelect, onHover}) {
    this.svg = svg;
    this.onMove = onMove;
    this.onSelect = onSelect || (() => {});
    this.onHover = onHover || (() => {});
    this.view = null;
    this.flipped = false;
    this.selected = null;
    this.targets = [];
    this.marks = {last: null, check: []};
    this.drag = null;
    svg.addEventListener("pointerdown", (e) => this.down(e));
    svg.addEventListener("pointermove", (e) => this.move(e));
    svg.addEventListener("pointerup", (e) => this.up(e));
    svg.addEventListener("pointerleave", () => this.onHover(null));
  }

  // view: the API's board; legal: the API's legal moves; marks: {last, check}
  show(view, legal, marks, flipped) {
    this.view = view;
    this.legal = legal;
    this.marks = marks;
    this.flipped = flipped;
    this.selected = null;
    this.targets = [];
    this.draw();
  }

  // where a square is drawn (its top-left corner), flipped for Black
  xy(name) {
    const f = this.view.file_names.indexOf(name.slice(0, 1));
    const r = this.view.rank_names.indexOf(name.slice(1));
    const col = this.flipped ? this.view.files - 1 - f : f;
    const row = this.flipped ? r : this.view.ranks - 1 - r;
    return [MARGIN + col * S, row * S];
  }

  // the square under a pointer event, or null off the board
  squareAt(evt) {
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    const col = Math.floor((p.x - MARGIN) / S), row = Math.floor(p.y / S);
    const {files, ranks} = this.view;
    if (col < 0 || row < 0 || col >= files || row >= ranks) return null;
    const f = this.flipped ? files - 1 - col : col;
    const r = this.flipped ? row : ranks - 1 - row;
    return this.view.file_names[f] + this.view.rank_names[r];
  }

  pieceOn(square) {
    return this.view.pieces.find((p) => p.square === square) || null;
  }

  draw() {
    const {files, ranks, file_names, rank_names} = this.view;
    const svg = this.svg;
    svg.replaceChildren();
    svg.setAttribute("viewBox", `0 0 ${MARGIN + files * S} ${ranks * S + MARGIN}`);
    const squares = el("g", {class: "squares"}, svg);
    for (let f = 0; f < files; f++) {
      for (let r = 0; r < ranks; r++) {
        const name = file_names[f] + rank_names[r];
        const [x, y] = this.xy(name);
        const light = (f + r) % 2 === 1;
        const rect = el("rect", {x, y, width: S, height: S, "data-square": name,
                                 class: `square ${light ? "light" : "dark"}`}, squares);
        const last = this.marks.last;
        if (last && (last.from === name || last.to === name)) rect.classList.add("last");
        if (this.selected === name) rect.classList.add("selected");
        if (this.marks.check.includes(name)) el("rect", {x, y, width: S, height: S, class: "check"}, squares);
      }
    }
    // coordinates: files below the board, ranks on its left
    const coords = el("g", {class: "coords"}, svg);
    file_names.forEach((n) => {
      const [x] = this.xy(n + rank_names[0]);
      el("text", {x: x + S / 2, y: ranks * S + MARGIN * 0.72}, coords).textContent = n;
    });
    rank_names.forEach((n) => {
      const [, y] = this.xy(file_names[0] + n);
      el("text", {x: MARGIN / 2, y: y + S / 2 + 5}, coords).textContent = n;
    });
    const pieces = el("g", {class: "pieces"}, svg);
    for (const p of this.view.pieces) {
      if (this.drag && this.drag.moved && this.drag.from === p.square) continue;
      pieces.appendChild(this.pieceGlyph(p, ...this.xy(p.square)));
    }
    const dots = el("g", {class: "targets"}, svg);
    for (const t of this.targets) {
      const [x, y] = this.xy(t);
      const capture = !!this.pieceOn(t);
      el("circle", {cx: x + S / 2, cy: y + S / 2, r: capture ? S * 0.46 : S * 0.15,
                    class: capture ? "target capture" : "target", "data-target": t}, dots);
    }
    if (this.drag && this.drag.moved) {
      const g = this.pieceGlyph(this.pieceOn(this.drag.from), this.drag.x - S / 2, this.drag.y - S / 2);
      g.classList.add("dragging");
      svg.appendChild(g);
    }
  }

  // one piece: its glyph, or its letter in a disc for a type without one;
  // a preset's attributes (hit points...) as a small badge
  pieceGlyph(p, x, y) {
    const g = el("g", {class: `piece ${p.color}`, "data-piece": p.square,
                       "data-type": p.type, transform: `translate(${x},${y})`});
    if (FILLED[p.type]) {
      el("text", {x: S / 2, y: S * 0.8, class: "body"}, g).textContent = FILLED[p.type];
      if (p.color === "white") {
        el("text", {x: S / 2, y: S * 0.8, class: "outline"}, g).textContent = OUTLINE[p.type];
      }
    } else {
      el("circle", {cx: S / 2, cy: S / 2, r: S * 0.36, class: "disc"}, g);
      el("text", {x: S / 2, y: S / 2 + 8, class: "letter"}, g).textContent = p.letter.toUpperCase();
    }
    const attrs = Object.entries(p.attrs || {});
    if (attrs.length) {
      const label = attrs.map(([k, v]) => `${k} ${v}`).join(" ");
      el("rect", {x: S - 26, y: 2, width: 24, height: 15, rx: 4, class: "badge"}, g);
      el("text", {x: S - 14, y: 13, class: "badge-text"}, g).textContent = String(attrs[0][1]);
      el("title", {}, g).textContent = label;
    }
    return g;
  }

  select(square) {
    this.selected = square;
    this.targets = square ? [...new Set(this.legal.filter((m) => m.from === square).map((m) => m.to))] : [];
    this.draw();
    if (square) this.onSelect(square);
  }

  // ---------------------------------------------------------------- pointer

  down(evt) {
    const sq = this.squareAt(evt);
    if (!sq) return;
    if (this.selected && sq !== this.selected && (this.targets.includes(sq) || !this.pieceOn(sq) ||
        this.pieceOn(sq).color !== this.pieceOn(this.selected).color)) {
      // the second click of click-click: a move (legal or not: the rules say)
      const from = this.selected;
      this.select(null);
      this.onMove(from, sq);
      return;
    }
    const piece = this.pieceOn(sq);
    if (!piece) { this.select(null); return; }
    this.svg.setPointerCapture(evt.pointerId);
    this.drag = {from: sq, startX: evt.clientX, startY: evt.clientY, moved: false, x: 0, y: 0};
    this.select(sq);
  }

  move(evt) {
    if (!this.drag) {
      this.onHover(this.squareAt(evt));
      return;
    }
    const pt = this.svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    const p = pt.matrixTransform(this.svg.getScreenCTM().inverse());
    this.drag.x = p.x; this.drag.y = p.y;
    if (Math.hypot(evt.clientX - this.drag.startX, evt.clientY - this.drag.startY) > 4) this.drag.moved = true;
    if (this.drag.moved) this.draw();
  }

  up(evt) {
    const drag = this.drag;
    this.drag = null;
    if (!drag) return;
    const to = this.squareAt(evt);
    if (drag.moved && to && to !== drag.from) {
      this.select(null);
      this.onMove(drag.from, to);   // dropped: legal or not, the rules say
    } else {
      this.draw();
    }
  }
}
