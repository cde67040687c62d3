// The part of Pyodide's API (pyodide.d.ts in its npm package) the score keeper's worker uses, for
// TypeScript's checker, which reads this file instead of the minified pyodide.mjs beside it.
export interface PyodideInterface {
  runPython(code: string): unknown;
  pyimport(name: string): any;
  unpackArchive(buffer: ArrayBuffer, format: string, options?: { extractDir?: string }): void;
}
export declare function loadPyodide(options?: { indexURL?: string }): Promise<PyodideInterface>;
