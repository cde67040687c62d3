// The types of the vendored Chart.js (chart.umd.min.js beside this file) for TypeScript's checker, taken
// from the npm package of the same version (package.json). Beside the script, this file is what the checker
// reads for `import "./vendor/chart.js/chart.umd.min.js"` instead of the minified code.
import type { Chart as ChartClass } from "chart.js";
import type * as ChartHelpers from "chart.js/helpers";

declare global {
  /** What the UMD script sets: the Chart class, with its helpers as `Chart.helpers`. */
  var Chart: typeof ChartClass & { helpers: typeof ChartHelpers };
}

export {};
