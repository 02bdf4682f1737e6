// Shared helpers: the repository's paths, the Rust binary to compare with
// (DISCLOSE_BIN, set by tests/node.rs; else target/release), transcripts.
import { accessSync, constants, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
export const CORPORA = join(ROOT, 'corpora')
export const GOLDEN = join(ROOT, 'golden')

export function rustBin() {
  const binary = process.env.DISCLOSE_BIN || join(ROOT, 'target', 'release', 'disclose')
  accessSync(binary, constants.X_OK)
  return binary
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
