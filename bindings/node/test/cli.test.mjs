// The package's `disclose` command names itself as it was started in the
// bless command: by its bin's name, or as `npx disclose-catalog` under npm.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { test } from 'node:test'
import { fileURLToPath } from 'node:url'

import { GOLDEN, scratch } from './helpers.mjs'

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'disclose.js')

/** A corpus whose one session has no golden: `check` prints the bless command. */
function failingProject () {
  const dir = scratch('disclose-cli-')
  mkdirSync(join(dir, 'corpora'))
  writeFileSync(join(dir, 'corpora', 'a.jsonl'), '{"op":"session","format":1,"about":"x"}\n')
  mkdirSync(join(dir, 'golden'))
  copyFileSync(join(GOLDEN, 'vocabulary.txt'), join(dir, 'golden', 'vocabulary.txt'))
  return dir
}

/** The bless command `check` prints when started as `script`, with `env` added. */
function blessCommand (script, dir, env = {}) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !key.startsWith('npm_') && key !== 'GITHUB_ACTIONS'))
  const run = spawnSync(process.execPath, [script, 'check'], { cwd: dir, env: { ...clean, ...env }, encoding: 'utf8' })
  assert.equal(run.status, 1, run.stdout + run.stderr)
  const found = run.stdout.match(/bless it with `([^`]*)`/)
  assert.ok(found, run.stdout)
  return found[1]
}

test('the bless command names the bin, or npx under npm', () => {
  const dir = failingProject()
  assert.equal(blessCommand(BIN, dir), 'disclose check --bless')
  // As npm links the bin under the package's name.
  const link = join(dir, 'disclose-catalog')
  symlinkSync(BIN, link)
  assert.equal(blessCommand(link, dir), 'disclose-catalog check --bless')
  // Under npx (and npm exec, and npm scripts), whichever bin ran.
  for (const script of [BIN, link]) {
    assert.equal(blessCommand(script, dir, { npm_command: 'exec' }), 'npx disclose-catalog check --bless')
  }
})
