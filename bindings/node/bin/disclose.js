#!/usr/bin/env node
'use strict'
// `npx disclose …`: the Rust command, run in process by the addon, with the
// binary's bytes and exit codes. Nothing here touches process.stdout or
// process.stderr, which would make the descriptors non-blocking under the
// command's own writes.
const { cli } = require('../index.js')
process.exit(cli(['disclose', ...process.argv.slice(2)]))
