#!/usr/bin/env node
/**
 * The `todokit` command the package installs (`npx todokit mcp --profile
 * claude-code`): the command line tool itself, linked into the native
 * module and run on this thread to its end, then the process exits with
 * its status. Nothing of the package's JavaScript runs meanwhile, so the
 * command has the process's standard streams and signals to itself.
 */

import { binding } from './native.js';

process.exit(binding.runCommand(process.argv.slice(2)));
