// Shared helpers: the repository's paths, the Rust binary to compare with
// (DISCLOSE_BIN, set by tests/node.rs; else target/release), transcripts.
import { execFileSync } from 'node:child_process'
import { accessSync, constants, copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
export const CORPORA = join(ROOT, 'corpora')
export const GOLDEN = join(ROOT, 'golden')

export function rustBin() {
  const binary = process.env.DISCLOSE_BIN || join(ROOT, 'target', 'release', 'disclose')
  accessSync(binary, constants.X_OK)
  return binary
}

/**
 * A fresh directory under the system's temporary one, removed when this
 * test file's process exits (`node --test` runs each file in its own), so
 * a run leaves nothing behind.
 */
export function scratch(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Every session file under `dir`, sorted, as paths relative to it. */
export function sessions(dir = CORPORA) {
  const found = []
  const walk = (at) => {
    for (const entry of readdirSync(at).sort()) {
      const path = join(at, entry)
      if (statSync(path).isDirectory()) walk(path)
      else if (entry.endsWith('.jsonl')) found.push(relative(dir, path))
    }
  }
  walk(dir)
  return found
}

/** A transcript (SPEC §12) as {line, op, output} blocks. */
export function transcriptBlocks(bytes) {
  const magic = Buffer.from('disclose transcript 1\n')
  if (!bytes.subarray(0, magic.length).equals(magic)) throw new Error('not a transcript')
  const blocks = []
  let at = magic.length
  while (at < bytes.length) {
    const end = bytes.indexOf(0x0a, at)
    const [, line, op, length] = bytes.subarray(at, end).toString('utf8').split(' ')
    const start = end + 1
    blocks.push({ line: Number(line), op, output: bytes.subarray(start, start + Number(length)).toString('utf8') })
    at = start + Number(length)
  }
  return blocks
}

/** The outputs the Rust binary's replay of a recorded session gives, as blocks. */
export function replayed(path) {
  return transcriptBlocks(execFileSync(rustBin(), ['replay', path]))
}

/**
 * `disclose check` of one recorded session, in a corpus of its own, against
 * a golden blessed from the Rust binary's replay of it: the report's text.
 */
export function checkRecorded(path) {
  const dir = scratch('disclose-check-')
  const name = basename(path, '.jsonl')
  mkdirSync(join(dir, 'corpora'))
  mkdirSync(join(dir, 'golden'))
  copyFileSync(path, join(dir, 'corpora', `${name}.jsonl`))
  writeFileSync(join(dir, 'golden', `${name}.txt`), execFileSync(rustBin(), ['replay', path]))
  copyFileSync(join(GOLDEN, 'vocabulary.txt'), join(dir, 'golden', 'vocabulary.txt'))
  return execFileSync(rustBin(), ['check', join(dir, 'corpora'), '--golden', join(dir, 'golden')], { encoding: 'utf8' })
}
