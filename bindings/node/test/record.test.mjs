// A Recorder's session replays byte for byte in the Rust binary: what the
// Node run answered is what `disclose replay` prints for the same ops, and
// `disclose check` passes the session with a golden blessed from replay.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'

import { Recorder, importMcp } from 'disclose-catalog'

import { checkRecorded, replayed, scratch } from './helpers.mjs'

test('a recorded session replays in Rust to the bytes Node answered', () => {
  const dir = scratch('disclose-node-')
  const path = join(dir, 'session.jsonl')
  const recorder = new Recorder(path, { about: 'record test' })
  const listed = importMcp(
    JSON.stringify({
      tools: [
        { name: 'search', description: 'Search the notes. Returns matches.', inputSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, annotations: { readOnlyHint: true } },
        { name: 'delete', description: 'Delete a note.', inputSchema: { type: 'object', properties: { id: { type: 'integer' } } } },
      ],
    }),
    'notes',
  )
  for (const decl of listed) recorder.admit(decl)
  const run = recorder.start('work')
  const answered = [
    run.render(),
    run.describe('search notes'),
    run.answer('c1', 'call', '{"name":"notes__delete","args":{"id":18446744073709551615}}'),
    run.answer('c2', 'call', '{"name":"notes__serch","args":{}}'),
    run.switchMode('chat'),
    run.answer('c3', 'call', '{"name":"notes__delete","args":{"id":-0}}'),
  ]
  assert.equal(answered[2].kind, 'execute')
  assert.equal(answered[2].argsJson, '{"id":18446744073709551615}')
  assert.equal(answered[3].code, 'call.unknown')
  recorder.finish()

  const blocks = replayed(path)
  const outputs = blocks.map((block) => block.output)
  assert.ok(outputs.includes(answered[0]))
  assert.ok(outputs.includes(answered[1]))
  assert.ok(outputs.some((output) => output.includes('routed c1 notes__delete {"id":18446744073709551615}')))
  assert.ok(outputs.includes(answered[3].text))
  assert.ok(outputs.includes(answered[4]))

  // The gate passes it against a golden blessed from that replay.
  const report = checkRecorded(path)
  assert.match(report, /pass  session\n.*2 passed, 0 failed/s)
})
