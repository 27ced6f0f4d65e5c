// How long the layouts take (issue 14: 1,000 tasks in 20 projects draw in under 1 s in the
// browser, 10,000 in under 3 s). Figures are logged, not asserted: the machine is shared, and a
// timing assertion would fail for reasons that are not ours. The picture must still be whole.
import { describe, expect, it } from 'vitest';
import { layoutTree } from '../../web/src/tree/layout.js';
import { TREE_STYLES } from '../../web/src/tree/types.js';
import { expectEverythingPlaced, expectLeavesApart } from './layout-checks.js';
import { sampleTree } from './sample-tree.js';

function median(xs: number[]) {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

describe.each([
  [1000, 3],
  [10000, 1],
])('layout of %i tasks in 20 projects', (tasks, runs) => {
  const input = sampleTree({ projects: 20, tasks });

  it.each(TREE_STYLES)('%s', (style) => {
    layoutTree(sampleTree({ projects: 5, tasks: 100 }), style); // warm the JIT
    const times: number[] = [];
    const cpu: number[] = [];
    let layout = layoutTree(input, style);
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const startCpu = process.cpuUsage();
      layout = layoutTree(input, style);
      times.push(performance.now() - start);
      cpu.push(process.cpuUsage(startCpu).user / 1000);
    }
    // CPU time next to wall time: on a busy machine the wall clock mostly measures the others.
    process.stdout.write(
      `layout ${style}, ${tasks} tasks: ${median(times).toFixed(0)} ms wall, ${median(cpu).toFixed(0)} ms CPU (median of ${runs}), ` +
        `${layout.branches.length} segments, viewBox ${Math.round(layout.width)}×${Math.round(layout.height)}\n`,
    );
    expectEverythingPlaced(input, layout);
    expectLeavesApart(layout);
    expect(times.length).toBe(runs);
  });
});
