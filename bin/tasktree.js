#!/usr/bin/env node
// The command-line tool runs from the compiled build (made by `npm ci` through `prepare`).
import '../dist/cli/main.js';
