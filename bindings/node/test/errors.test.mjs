// The host's mistakes throw DiscloseError with a code and a clear message,
// and nothing else breaks: the catalog, the run and the process go on.
// Refusals of the model's calls are answers, never thrown.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'

import { Catalog, DiscloseError, Recorder, importAnthropic, importMcp, importOpenai, parseArgs, canonicalJson } from 'disclose-catalog'

import { scratch } from './helpers.mjs'

const decl = { origin: 'fs', name: 'read_file', description: 'Read a file.', inputSchema: { type: 'object' }, effect: 'read', approval: 'never' }

function throwsDisclose(run, code, pattern) {
  assert.throws(run, (error) => {
    assert.ok(error instanceof DiscloseError, `${error}`)
    assert.ok(error instanceof Error)
    assert.equal(error.name, 'DiscloseError')
    assert.equal(error.code, code)
    assert.match(error.message, pattern)
    return true
  })
}

test('a refused admission throws its refusal code, class and lines', () => {
  const catalog = new Catalog()
  assert.equal(catalog.admitTool(decl), 'fs__read_file')
  assert.throws(() => catalog.admitTool(decl), (error) => {
    assert.ok(error instanceof DiscloseError)
    assert.equal(error.code, 'admit.duplicate')
    assert.equal(error.refusalKind, 'E_INVALID_ARGS')
    assert.equal(error.text, 'refused E_INVALID_ARGS admit.duplicate: "fs__read_file" is already admitted as a tool\n')
    return true
  })
  // The catalog goes on.
  assert.equal(catalog.admitTool({ ...decl, name: 'write_file' }), 'fs__write_file')
  assert.equal(catalog.generation, 2)
})

test('bad input to every entry point is a DiscloseError, and the catalog goes on', () => {
  const catalog = new Catalog()
  throwsDisclose(() => catalog.admitTool({ ...decl, inputSchema: '{' }), 'input', /inputSchema is not a JSON text: .*line 1 column/)
  throwsDisclose(() => catalog.admitTool({ ...decl, inputSchema: () => 1 }), 'input', /inputSchema is not JSON/)
  throwsDisclose(() => catalog.admitTool({ ...decl, inputSchema: { n: 1n } }), 'input', /inputSchema cannot be written as JSON: TypeError: Do not know how to serialize a BigInt/)
  const cyclic = {}
  cyclic.self = cyclic
  throwsDisclose(() => catalog.admit({ ...decl, inputSchema: cyclic }), 'input', /cannot be written as JSON/)
  throwsDisclose(() => catalog.start('play'), 'input', /mode must be "chat" or "work", not "play"/)
  throwsDisclose(() => catalog.start('work', { profile: 'boss' }), 'input', /profile must be "scout" or "writer"/)
  throwsDisclose(() => importMcp('not json', 'srv'), 'tool_list', /the tool list/)
  throwsDisclose(() => importOpenai('{}', 'srv'), 'tool_list', /the tool list/)
  throwsDisclose(() => importAnthropic('[1]', 'srv'), 'tool_list', /the tool list/)
  throwsDisclose(() => parseArgs('{"a":}'), 'input', /argsJson is not a JSON text/)
  throwsDisclose(() => canonicalJson('[' .repeat(200) + ']'.repeat(200)), 'input', /value is not a JSON text/)
  // A wrong type is napi's own TypeError-like error, not a crash.
  assert.throws(() => catalog.admitTool({ origin: 1 }))

  assert.equal(catalog.admitTool(decl), 'fs__read_file')
  const run = catalog.start('work')
  throwsDisclose(() => run.answer('c', 'call', '{"name":'), 'input', /argsJson is not a JSON text/)
  throwsDisclose(() => run.toolsJson('gemini'), 'input', /provider must be/)
  throwsDisclose(() => run.switchMode('off'), 'input', /mode must be/)
  throwsDisclose(() => catalog.admitTool(decl), 'ended', /started its run/)
  throwsDisclose(() => catalog.start('work'), 'ended', /already started/)
  // The run goes on, and a started run's admissions are refused, not made.
  throwsDisclose(() => run.admitTool({ ...decl, name: 'late' }), 'admit.frozen', /admission refused/)
  assert.equal(run.answer('c', 'call', '{"name":"fs__read_file","args":{}}').kind, 'execute')
  run.finish()
  throwsDisclose(() => run.render(), 'ended', /finished/)
})

test('refusals are answers', () => {
  const catalog = new Catalog()
  catalog.admitTool(decl)
  const run = catalog.start('chat')
  const unknown = run.answer('c', 'call', '{"name":"fs__raed_file","args":{}}')
  assert.equal(unknown.kind, 'refused')
  assert.equal(unknown.code, 'call.unknown')
  assert.match(unknown.text, /^refused /)
  const described = run.answer('d', 'describe', '{"name":"fs__read_file"}')
  assert.equal(described.kind, 'text')
  assert.match(described.text, /Read a file\./)
})

test('a recorder that cannot create its file throws recording', () => {
  throwsDisclose(() => new Recorder('/nonexistent-dir/x/session.jsonl'), 'recording', /cannot create/)
})

test('a recorder used after start throws ended; its run records', () => {
  const dir = scratch('disclose-node-')
  const path = join(dir, 'session.jsonl')
  const recorder = new Recorder(path, { about: 'errors test' })
  recorder.admitTool(decl)
  const run = recorder.start('work')
  throwsDisclose(() => recorder.admitTool(decl), 'ended', /started its run/)
  assert.equal(run.recording, true)
  recorder.finish()
  throwsDisclose(() => run.render(), 'ended', /finished/)
  const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean)
  assert.ok(lines[0].includes('errors test'), lines[0])
})
