// ESLint's rules for the web pages' JavaScript (src/upriver/web/static), which the browser runs as it is:
// ES modules, no build step. The vendored libraries (static/vendor) are other projects' code.
import js from "@eslint/js";
import globals from "globals";

export default [
  { ignores: ["src/upriver/web/static/vendor/**", "node_modules/**", ".venv/**", "tests/vendor/**", "artifacts/**", "site/**", "build/**"] },
  {
    files: ["src/upriver/web/static/**/*.js"],
    ...js.configs.recommended,
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
  {
    files: ["src/upriver/web/static/**/*.js"],
    rules: {
      eqeqeq: ["error", "always", { null: "ignore" }],
      "no-implicit-globals": "error",
      "no-shadow": "error",
      "no-unused-vars": ["error", { args: "after-used", argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "no-var": "error",
      "prefer-const": "error",
    },
  },
  {
    // A service worker runs in its own global scope, without the page's window and document.
    files: ["src/upriver/web/static/*-sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
];
