// The one place the app takes the drawing from: switch to './../tree/index' when the layout branch lands.
export { TreeDrawing, type LayoutInput, type LayoutProject, type LayoutTask, type TreeStyle } from '../tree/index';
export { TreeThumbnail } from '../tree/index';
