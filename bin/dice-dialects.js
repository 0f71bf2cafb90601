#!/usr/bin/env node
import { main } from '../dist/bundle/cli.js';

// A reader that closed the pipe (`… | head`) wants no more: stop as a SIGPIPE would, quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error) => {
    if (error?.code === 'EPIPE') process.exit(141);
    throw error;
  });
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`dice-dialects: internal error: ${error?.stack ?? error}\n`);
    process.exitCode = 2;
  },
);
