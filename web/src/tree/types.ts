// The data a drawing is made from and the picture it becomes. Pure types: the layout modules
// import no DOM and no Preact, so they run (and are tested) in Node as well as in the browser.

import type { TreeStyleName } from '../api/types.js';

// The records a drawing comes from are the API's (web/src/api/types.ts, generated from the served
// OpenAPI document): a style or a field the server adds reaches the drawing's types too.
export type { TreeShape } from '../api/types.js';
export type TreeStyle = TreeStyleName;
export { TREE_STYLES } from '../api/types.js';

export interface LayoutProject {
  id: string;
  parent_id: string | null;
  name: string;
  color: string;
  position: number;
}

export interface LayoutTask {
  id: string;
  project_id: string | null;
  title: string;
  color: string;
  status: 'todo' | 'open' | 'done' | 'deferred' | 'archived';
  position: number;
  /** The API's deadline, when the app knows it (the label may say the task is overdue). */
  deadline?: string | null;
}

/** As returned by GET /api/v1/trees/{id}; the records may carry more fields. */
export interface LayoutInput {
  treeId: string;
  name: string;
  projects: LayoutProject[];
  tasks: LayoutTask[];
}

export interface Branch {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  width: number;
}

export interface PlacedProject {
  id: string;
  x: number;
  y: number;
}

/** One per drawn task; `angle` is the direction the leaf points, in degrees clockwise from "right". */
export interface PlacedLeaf {
  id: string;
  x: number;
  y: number;
  angle: number;
}

/** Coordinates inside the viewBox `0 0 width height`, the root at the bottom centre. */
export interface Layout {
  branches: Branch[];
  projects: PlacedProject[];
  leaves: PlacedLeaf[];
  width: number;
  height: number;
}

/** The props of render.tsx's TreeDrawing (here, so that code without JSX can name them too). */
export interface TreeDrawingProps {
  input: LayoutInput;
  style: TreeStyle;
  /** Task ids to ring, e.g. search results. */
  highlighted?: ReadonlySet<string>;
  selectedId?: string | null;
  /** Task ids whose leaves carry the overdue ring (their labels say so in words). */
  overdue?: ReadonlySet<string>;
  /** Leaves an agent just added or changed, each with the agent's name shown beside it. */
  fresh?: ReadonlyMap<string, string>;
  onOpenTask(id: string): void;
  onOpenProject?(id: string): void;
  labels: {
    /** The drawing's accessible name; must contain the tree name. */
    drawing: string;
    task(t: LayoutTask): string;
    project(p: LayoutProject): string;
    /** With these, the drawing sits in a window that zooms and pans (zoomView.tsx). */
    zoom?: { label: string; zoomIn: string; zoomOut: string; fit: string };
  };
}

/** A leaf is drawn about this long (viewBox units), centred on its point. */
export const LEAF_LENGTH = 10;
/** Every layout keeps leaf centres at least this far apart, so leaves never cover each other. */
export const LEAF_SPACING = 12;
