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
const invoked = basename(process.argv[1] || '').replace(/\.(js|cmd|ps1)$/, '')
const name = invoked === 'disclose-catalog' ? invoked : 'disclose'
process.exit(cli([name, ...process.argv.slice(2)]))
