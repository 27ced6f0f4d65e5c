// The drawing's window (CONTRACT §18): the view a page opens with, zooming about a point, and
// which project names there is room for.
import { describe, expect, it } from 'vitest';
import { layoutTree } from '../../web/src/tree/layout.js';
import { clampView, fitView, openingView, roomyLabels, TAP_SCALE, viewBoxOf, zoomAt } from '../../web/src/tree/zoom.js';
import { sampleTree } from './sample-tree.js';

const layout = layoutTree(sampleTree({ projects: 10, tasks: 400, nestEvery: 3 }), 'tidy-fan');

describe('the drawing’s window', () => {
  it('opens on the whole tree on a desktop, and tap-sized on a phone', () => {
    const desktop = { w: 1200, h: 600 };
    const fit = fitView(layout, desktop);
    expect(openingView(layout, desktop)).toEqual(fit);
    expect(viewBoxOf(fit, desktop).split(' ').map(Number)[2]).toBeGreaterThanOrEqual(layout.width - 0.01);
    const phone = { w: 360, h: 500 };
    expect(fitView(layout, phone).k).toBeLessThan(TAP_SCALE);
    const opened = openingView(layout, phone);
    // A leaf's hit circle (12 units) is 24 px across or more.
    expect(opened.k * 12).toBeGreaterThanOrEqual(24);
  });

  it('zooms about the point under the pointer and stays within its bounds', () => {
    const box = { w: 800, h: 600 };
    const fit = fitView(layout, box);
    const zoomed = zoomAt(fit, 2, 100, 150, box, layout);
    expect(zoomed.k).toBeCloseTo(fit.k * 2);
    // The unit under (100, 150) is still there.
    const before = { x: fit.cx + (100 - 400) / fit.k, y: fit.cy + (150 - 300) / fit.k };
    const after = { x: zoomed.cx + (100 - 400) / zoomed.k, y: zoomed.cy + (150 - 300) / zoomed.k };
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
    expect(clampView({ cx: -500, cy: 1e9, k: 1e6 }, layout, box)).toEqual({ cx: 0, cy: layout.height, k: 8 });
  });

  it('names the projects there is room for, trunk side first', () => {
    const at = { id: '', x: 0, y: 0 };
    const projects = [
      { id: 'a', name: 'Kitchen', at: { ...at, x: 0, y: 0 } },
      { id: 'b', name: 'Cupboards', at: { ...at, x: 5, y: 2 } },
      { id: 'c', name: 'Garden', at: { ...at, x: 0, y: 100 } },
    ];
    expect([...roomyLabels(projects, 1)]).toEqual(['a', 'c']);
    expect([...roomyLabels(projects, 20)]).toEqual(['a', 'b', 'c']);
  });
});
