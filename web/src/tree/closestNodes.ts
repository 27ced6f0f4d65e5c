// Each attraction point's closest node within the attraction distance, kept up to date as nodes
// are added rather than searched for again every growth step. Nodes are only ever added, so a
// point's closest node changes only when a new node lands nearer: each new node visits the points
// around it once (a uniform grid over the points, cell = the attraction distance) instead of
// every live point querying every node around it every step. The answer is the one a full scan
// gives, ties to the older node, so the picture does not change with the speed-up.

export class ClosestNodes {
  /** Per point: the closest node offered so far within the radius, or -1. */
  readonly node: Int32Array;
  /** Per point: its squared distance (Infinity while `node` is -1). */
  readonly distance2: Float64Array;
  /** Points that got their first node since the caller last emptied this, in no order. */
  readonly woken: number[] = [];
  private readonly dead: Uint8Array;
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;
  private readonly radius2: number;
  private readonly cell: number;
  private readonly minX: number;
  private readonly minY: number;
  private readonly columns: number;
  private readonly rows: number;
  /** Points of cell c are order[start[c]] .. order[start[c + 1] - 1] (compressed rows). */
  private readonly start: Int32Array;
  private readonly order: Int32Array;

  constructor(points: readonly { x: number; y: number }[], radius: number) {
    const n = points.length;
    this.node = new Int32Array(n).fill(-1);
    this.distance2 = new Float64Array(n).fill(Infinity);
    this.dead = new Uint8Array(n);
    this.xs = new Float64Array(n);
    this.ys = new Float64Array(n);
    this.radius2 = radius * radius;
    this.cell = radius;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const { x, y } = points[i]!;
      this.xs[i] = x;
      this.ys[i] = y;
      minX = Math.min(minX, x);
      minY = Math.min(minY, y);
      maxX = Math.max(maxX, x);
      maxY = Math.max(maxY, y);
    }
    if (n === 0) minX = minY = maxX = maxY = 0;
    this.minX = minX;
    this.minY = minY;
    this.columns = Math.floor((maxX - minX) / radius) + 1;
    this.rows = Math.floor((maxY - minY) / radius) + 1;
    // Counting sort of the points into their cells.
    const cells = this.columns * this.rows;
    const cellOf = new Int32Array(n);
    this.start = new Int32Array(cells + 1);
    for (let i = 0; i < n; i++) {
      cellOf[i] = this.cellAt(this.xs[i]!, this.ys[i]!);
      this.start[cellOf[i]! + 1]!++;
    }
    for (let c = 0; c < cells; c++) this.start[c + 1]! += this.start[c]!;
    const fill = this.start.slice(0, cells);
    this.order = new Int32Array(n);
    for (let i = 0; i < n; i++) this.order[fill[cellOf[i]!]!++] = i;
  }

  private cellAt(x: number, y: number): number {
    return Math.floor((y - this.minY) / this.cell) * this.columns + Math.floor((x - this.minX) / this.cell);
  }

  /** A point that is reached: no node is offered to it any more. */
  remove(point: number): void {
    this.dead[point] = 1;
  }

  isRemoved(point: number): boolean {
    return this.dead[point] === 1;
  }

  /**
   * A new node at (x, y): every live point within the radius to which it is strictly closer than
   * the point's closest so far takes it. Offer nodes in the order they were made, so that a tie
   * keeps the older node.
   */
  offer(id: number, x: number, y: number): void {
    const cx = Math.floor((x - this.minX) / this.cell);
    const cy = Math.floor((y - this.minY) / this.cell);
    const fromX = Math.max(cx - 1, 0);
    const toX = Math.min(cx + 1, this.columns - 1);
    const fromY = Math.max(cy - 1, 0);
    const toY = Math.min(cy + 1, this.rows - 1);
    // Beyond every point by more than a cell: none is within the radius.
    if (fromX > toX || fromY > toY) return;
    const { xs, ys, dead, node, distance2, start, order, radius2 } = this;
    for (let row = fromY; row <= toY; row++) {
      // The cells of one row are adjacent in `order`: one run per row.
      const first = start[row * this.columns + fromX]!;
      const last = start[row * this.columns + toX + 1]!;
      for (let k = first; k < last; k++) {
        const i = order[k]!;
        if (dead[i]) continue;
        // Node minus point, as KDBush and the scan before it computed it: the same floats.
        const dx = x - xs[i]!;
        const dy = y - ys[i]!;
        const d = dx * dx + dy * dy;
        if (d <= radius2 && d < distance2[i]!) {
          if (node[i] === -1) this.woken.push(i);
          distance2[i] = d;
          node[i] = id;
        }
      }
    }
  }
}
