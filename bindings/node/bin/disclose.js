#!/usr/bin/env node
'use strict'
// `npx disclose-catalog …` (and `disclose`, the same file under the
// package's other command name): the Rust command, run in process by the
// addon, with the binary's bytes and exit codes. Its usage lines name the
// command as it was started. Nothing here touches process.stdout or
// process.stderr, which would make the descriptors non-blocking under the
// command's own writes.
const { basename } = require('node:path')
const { cli } = require('../index.js')

// How this was started, as a person types it to run it again (the bless
// command repeats it): under npm (npx, npm exec, an npm script; npm sets
// npm_command) `npx disclose-catalog`, which runs this package whether or
// not it is installed (`npx disclose` would fetch the registry's unrelated
// `disclose`); otherwise the name of the bin it was started as.
function invokedAs (script, env) {
  if (env.npm_command) return 'npx disclose-catalog'
  const name = basename(script || '').replace(/\.[cm]?js$/i, '')
  return name === 'disclose-catalog' ? name : 'disclose'
}

process.exit(cli([invokedAs(process.argv[1], process.env), ...process.argv.slice(2)]))
