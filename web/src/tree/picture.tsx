/** @jsxRuntime automatic */
/** @jsxImportSource preact */
// The painted tree: ground, branches and leaves, no nodes and no handlers. The drawing puts its
// focusable nodes over it; a tree's card on the trees page shows it alone, small.
import type { JSX } from 'preact';
import type { LeafPaint } from './leafPaint.js';
import type { BranchPath } from './paint.js';
import type { Layout } from './types.js';

export function Picture({
  layout,
  paths,
  leaves,
}: {
  layout: Layout;
  paths: BranchPath[];
  leaves: LeafPaint;
}): JSX.Element {
  const { width, height } = layout;
  const ground = layout.branches[0]?.y1 ?? height;
  return (
    /* The picture takes no pointer events: under the mouse, Chromium would hit-test the stroke of
       a path of 25,000 segments (a third of a second at 10,000 tasks); the nodes take them. */
    <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} pointer-events="none">
      <ellipse
        cx={width / 2}
        cy={ground}
        rx={width * 0.42}
        ry={Math.max(6, width * 0.025)}
        fill="#7c9a4e"
        fill-opacity="0.18"
      />
      <path
        d={`M${width * 0.06} ${ground}H${width * 0.94}`}
        stroke="#7c9a4e"
        stroke-opacity="0.55"
        stroke-width="2"
        stroke-linecap="round"
      />
      <g class="tree-branches" fill="none" stroke-linecap="round" stroke-linejoin="round">
        {paths.map((p) => (
          <path key={p.width} d={p.d} stroke={p.color} stroke-width={p.width} />
        ))}
      </g>
      <g class="tree-leaves" stroke-width="1">
        {leaves.groups.map((g) => (
          <path
            key={`${g.color} ${g.look}`}
            d={g.d}
            fill={g.color}
            fill-opacity={g.look === 'done' ? 0.3 : g.look === 'deferred' ? 0.6 : 1}
            stroke={g.color}
            stroke-dasharray={g.look === 'deferred' ? '2 1.5' : undefined}
          />
        ))}
        <path d={leaves.midribs} stroke="#ffffff" stroke-opacity="0.45" stroke-width="0.7" fill="none" />
        <path
          class="tree-checks"
          d={leaves.checks}
          stroke="#1f5130"
          stroke-width="1.6"
          fill="none"
          stroke-linecap="round"
          stroke-linejoin="round"
        />
      </g>
    </svg>
  );
}
