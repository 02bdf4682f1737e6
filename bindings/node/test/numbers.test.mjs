// Numbers keep their bytes: args cross as JSON text, read in Rust, never
// by JSON.parse; parseArgs gives BigInt where a number would round.
import assert from 'node:assert/strict'
import { test } from 'node:test'

import { Catalog, canonicalJson, parseArgs } from 'disclose-catalog'

function anyRun() {
  const catalog = new Catalog()
  catalog.admitTool({ origin: 't', name: 'any', description: 'Takes anything.', inputSchema: '{"type":"object"}', effect: 'read', approval: 'never' })
  return catalog.start('work')
}

function routed(run, args) {
  // t__any is dormant: it is reached through the call door.
  const answer = run.answer('c', 'call', '{"name":"t__any","args":' + args + '}')
  assert.equal(answer.kind, 'execute', JSON.stringify(answer))
  return answer.argsJson
}

const cases = [
  ['{"n":18446744073709551615}', '{"n":18446744073709551615}'],
  ['{"n":9007199254740993}', '{"n":9007199254740993}'],
  ['{"n":-0}', '{"n":-0.0}'],
  ['{"n":1.0}', '{"n":1.0}'],
  ['{"n":1E+2}', '{"n":100.0}'],
  ['{"n":123456789012345678901234567890}', '{"n":1.2345678901234568e+29}'],
  ['{"n":-9223372036854775808}', '{"n":-9223372036854775808}'],
  ['{"b":2,"a":[1,2.5e-5]}', '{"a":[1,0.000025],"b":2}'],
]

for (const [text, written] of cases) {
  test(`${text} is written ${written}`, () => {
    assert.equal(routed(anyRun(), text), written)
  })
}

test('JSON.parse would have rounded them', () => {
  assert.equal(JSON.stringify(JSON.parse('{"n":18446744073709551615}')), '{"n":18446744073709552000}')
  assert.equal(JSON.stringify(JSON.parse('{"n":9007199254740993}')), '{"n":9007199254740992}')
})

test('parseArgs keeps every integer whole, as a BigInt past 2^53 - 1', () => {
  const args = parseArgs('{"u":18446744073709551615,"i":-9223372036854775808,"s":9007199254740991,"z":-0,"f":1.5,"o":[null,true,"x"]}')
  assert.equal(args.u, 18446744073709551615n)
  assert.equal(args.i, -9223372036854775808n)
  assert.equal(args.s, 9007199254740991)
  assert.ok(Object.is(args.z, -0))
  assert.equal(args.f, 1.5)
  assert.deepEqual(args.o, [null, true, 'x'])
})

test('parseArgs makes __proto__ an own key, as JSON.parse does', () => {
  const args = parseArgs('{"__proto__":{"polluted":1}}')
  assert.equal(Object.getPrototypeOf(args), Object.prototype)
  assert.deepEqual(Object.keys(args), ['__proto__'])
  assert.equal({}.polluted, undefined)
})

test('an object is read as JSON.stringify writes it', () => {
  assert.equal(canonicalJson({ b: 1, a: [1.5, 'x'], skipped: undefined }), '{"a":[1.5,"x"],"b":1}')
  assert.equal(canonicalJson('{"b":1.0,"a":-0}'), '{"a":-0.0,"b":1.0}')
})
