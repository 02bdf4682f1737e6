// The binding gives the Rust library's bytes: every shipped session,
// replayed through the Node API, prints its golden transcript.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'

import { Catalog } from 'disclose-catalog'
import { answer } from 'disclose-catalog/conformance'

import { CORPORA, GOLDEN, sessions, transcriptBlocks } from './helpers.mjs'

const all = sessions()

test('the corpus is there', () => {
  assert.ok(all.length >= 140, `${all.length} sessions`)
})

for (const session of all) {
  test(`${session} prints its golden`, () => {
    const lines = readFileSync(join(CORPORA, session)).toString('utf8').split('\n')
    const ops = lines.slice(1).filter((line) => line.trim())
    const golden = readFileSync(join(GOLDEN, session.replace(/\.jsonl$/, '.txt')))
    const expected = transcriptBlocks(golden).map((block) => block.output)
    const replayed = answer('case', ops)
    assert.equal(replayed.errored, undefined)
    assert.deepEqual(replayed.outputs, expected)
  })
}

test('toolsJson is the provider bytes toolDefs pins', () => {
  const catalog = new Catalog()
  catalog.admitTool({ origin: 'host', name: 'read', description: 'Read a file.', inputSchema: { type: 'object' }, effect: 'read', approval: 'never' })
  const run = catalog.start('work')
  for (const provider of ['anthropic', 'openai_chat', 'openai_responses', 'mcp']) {
    const lines = run.toolDefs(provider).split('\n').filter(Boolean)
    assert.equal(run.toolsJson(provider), '[' + lines.join(',') + ']')
    assert.deepEqual(run.toolsFor(provider), lines.map((line) => JSON.parse(line)))
  }
  assert.equal(run.toolsJson(), run.toolsJson('anthropic'))
  assert.ok(run.toolsJson().startsWith('[{"description":"Read a file.","input_schema":{"type":"object"},"name":"read"},'))
})
