// The npm package's benchmarks (script/bench-node):
//
// - Z1: `Run.answer` from Node, for a fitted call and a keyword `describe`,
//   over the catalog of a shipped session (the Rust side,
//   examples/answer_timing.rs, is timed by the script in the same run);
// - Z2: a keyword `describe` against MiniSearch (the pure-JS search a user
//   would pick, pinned in package.json) over the same catalogs and the
//   shipped recall suite, with hit@8 beside each.
//
// Prints one `key value` line per figure. `node bench/bench.mjs [ROUNDS]`.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

import MiniSearch from 'minisearch'

import { Case, Op } from '../conformance.mjs'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const SESSION = join(ROOT, 'corpora', 'realistic', 'coding_agent_work_session.jsonl')
// The calls both sides time (examples/answer_timing.rs makes the same).
const CALLS = [
  ['fitted_call', 'toolu_01', 'call', '{"name":"sentry__get_issue_details","args":{"organizationSlug":"acme","issueId":"API-1K3"}}'],
  ['keyword_describe', 'toolu_02', 'describe', '{"name":"open pull requests that target the main branch"}'],
]

/** The session's run, started as its `start` op says, and its ops' fields. */
function started(path) {
  const replay = new Case()
  const ops = []
  for (const line of readFileSync(path, 'utf8').split('\n').slice(1)) {
    if (!line.trim()) continue
    const op = new Op(line)
    ops.push(op.fields)
    if (['tool', 'skill', 'carried_skill', 'dev', 'start'].includes(op.name)) replay.step(op)
    if (op.name === 'start') break
  }
  return { run: replay.run, ops }
}

/** Nanoseconds per call, the best of 5 batches. */
function bestOf(rounds, call) {
  let best = Infinity
  for (let batch = 0; batch < 5; batch += 1) {
    const start = process.hrtime.bigint()
    for (let round = 0; round < rounds; round += 1) call()
    best = Math.min(best, Number(process.hrtime.bigint() - start) / rounds)
  }
  return best
}

function z1(rounds) {
  const { run } = started(SESSION)
  for (const [kind, id, name, args] of CALLS) {
    console.log(`Z1_node_${kind}_ns ${bestOf(rounds, () => run.answer(id, name, args)).toFixed(0)}`)
  }
}

/** A text's words: camelCase split, lower-cased, alphanumeric runs. */
const words = (text) => text.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().match(/[a-z0-9]+/g) ?? []

/** The names a describe answer lists, in rank order (a skill's line reads `- skill <name>: …`). */
const listed = (text) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2).split(':', 1)[0].replace(/^skill /, ''))

function z2() {
  let tasks = 0
  const hits = { disclose: 0, minisearch: 0 }
  const spent = { disclose: 0n, minisearch: 0n }
  const recalls = readdirSync(join(ROOT, 'corpora', 'recall')).filter((file) => file.endsWith('.recall')).sort()
  for (const recall of recalls) {
    const { run, ops } = started(join(ROOT, 'corpora', 'realistic', recall.replace(/\.recall$/, '.jsonl')))
    const documents = []
    for (const name of Object.keys(run.digests())) {
      const tool = run.tool(name)
      if (tool) documents.push({ id: name, name: words(name.replaceAll('_', ' ')).join(' '), description: words(tool.description).join(' ') })
    }
    for (const op of ops) {
      if (op.op === 'skill' || op.op === 'carried_skill') {
        documents.push({ id: op.name, name: words(op.name.replaceAll('-', ' ')).join(' '), description: words(op.disclosure).join(' ') })
      }
    }
    const index = new MiniSearch({ fields: ['name', 'description'], searchOptions: { boost: { name: 2 } } })
    index.addAll(documents)
    for (const line of readFileSync(join(ROOT, 'corpora', 'recall', recall), 'utf8').split('\n')) {
      if (!line.trim()) continue
      const task = JSON.parse(line)
      tasks += 1
      let start = process.hrtime.bigint()
      const ranked = listed(run.describe(task.query)).slice(0, 8)
      spent.disclose += process.hrtime.bigint() - start
      hits.disclose += ranked.some((name) => task.expect.includes(name)) ? 1 : 0
      start = process.hrtime.bigint()
      const top = index.search(words(task.query).join(' ')).slice(0, 8)
      spent.minisearch += process.hrtime.bigint() - start
      hits.minisearch += top.some((result) => task.expect.includes(result.id)) ? 1 : 0
    }
  }
  console.log(`Z2_tasks ${tasks}`)
  for (const side of ['disclose', 'minisearch']) {
    console.log(`Z2_${side}_us_per_query ${(Number(spent[side]) / tasks / 1000).toFixed(1)}`)
    console.log(`Z2_${side}_hit8_pct ${((100 * hits[side]) / tasks).toFixed(1)}`)
  }
}

const rounds = Number(process.argv[2] ?? 2000)
z1(rounds)
z2()
