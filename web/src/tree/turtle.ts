// The turtle that gives an L-system word its shape: F draws forward, + and - turn (degrees,
// clockwise for +), [ and ] save and restore, L hangs a leaf, K marks a project's knot.
// It pushes segments into arrays; it never draws.
import { emptySketch, heading, leafAngle, type Sketch } from './frame.js';
import type { Module } from './rewriter.js';

interface State {
  x: number;
  y: number;
  /** Radians from "up", clockwise. */
  theta: number;
}

export function interpret(word: Module[]): Sketch {
  const sketch = emptySketch();
  let s: State = { x: 0, y: 0, theta: 0 };
  const stack: State[] = [];
  for (const m of word) {
    switch (m.symbol) {
      case 'F': {
        const h = heading(s.theta);
        const length = m.value ?? 1;
        const next = { x: s.x + h.dx * length, y: s.y + h.dy * length, theta: s.theta };
        sketch.branches.push({ x1: s.x, y1: s.y, x2: next.x, y2: next.y, width: m.width ?? 1 });
        s = next;
        break;
      }
      case '+':
        s = { ...s, theta: s.theta + ((m.value ?? 0) * Math.PI) / 180 };
        break;
      case '-':
        s = { ...s, theta: s.theta - ((m.value ?? 0) * Math.PI) / 180 };
        break;
      case '[':
        stack.push(s);
        break;
      case ']':
        s = stack.pop() ?? s;
        break;
      case 'L':
        sketch.leaves.push({ id: m.id!, x: s.x, y: s.y, angle: leafAngle(s.theta) });
        break;
      case 'K':
        sketch.projects.push({ id: m.id!, x: s.x, y: s.y });
        break;
      default:
        // Buds (A, X) left after the last rewrite draw nothing, like lindenmayer's missing finals.
        break;
    }
  }
  return sketch;
}
