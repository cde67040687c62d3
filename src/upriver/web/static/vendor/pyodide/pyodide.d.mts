// The part of Pyodide's API (pyodide.d.ts in its npm package) the score keeper's worker uses, for
// TypeScript's checker, which reads this file instead of the minified pyodide.mjs beside it.
export interface PyodideInterface {
  runPython(code: string): unknown;
  pyimport(name: string): any;
  unpackArchive(buffer: ArrayBuffer, format: string, options?: { extractDir?: string }): void;
  /** Pyodide's memory as it is now (experimental: only after loadPyodide({_makeSnapshot: true})). */
  makeMemorySnapshot(): Uint8Array;
}
export declare function loadPyodide(options?: {
  indexURL?: string;
  /** Experimental: allow makeMemorySnapshot(). */
  _makeSnapshot?: boolean;
  /** Experimental: start from a memory snapshot instead of starting Python. */
  _loadSnapshot?: Uint8Array | ArrayBuffer | Promise<Uint8Array | ArrayBuffer>;
  /** The Emscripten module factory (pyodide.asm.mjs's default export), when the caller loaded it. */
  createPyodideModule?: (settings: any) => Promise<any>;
}): Promise<PyodideInterface>;
export declare const version: string;
