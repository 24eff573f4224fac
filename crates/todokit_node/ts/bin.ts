#!/usr/bin/env node
/**
 * The `todokit` command the package installs (`npx todokit mcp --profile
 * claude-code`): the command line tool itself, linked into the native
 * module and run on this thread to its end, then the process exits with
 * its status. Nothing of the package's JavaScript runs meanwhile, so the
 * command has the process's standard streams and signals to itself.
 */

import { binding } from './native.js';

// `todokit setup` writes the program that started the command into an
// agent's configuration; this process is node, so it is told the script.
process.env['TODOKIT_LAUNCHER'] ||= process.argv[1];
process.exit(binding.runCommand(process.argv.slice(2)));
