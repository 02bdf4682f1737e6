// `node conformance.mjs`: this package behind the conformance protocol
// (docs/protocol.md), so that `disclose check --impl` judges the Node
// binding, not the binary, on every case of the shipped corpus.
//
// Each op is replayed through the public API (Catalog, Run) and its output
// written as SPEC §11.2 prints it. The fields that carry JSON values
// (`input_schema`, `args`) are handed to the binding as the exact text of
// the op line: JSON.parse would round 18446744073709551615 and read -0 as
// 0, and the bytes of the transcript follow the text.
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { Catalog, DiscloseError, CONTRACT_VERSION } from './index.js'

class Malformed extends Error {}

const SPACE = ' \t\n\r'

function skip(text, at) {
  while (at < text.length && SPACE.includes(text[at])) at++
  return at
}

function expect(text, at, char) {
  at = skip(text, at)
  if (text[at] !== char) throw new Malformed(`expected ${JSON.stringify(char)} at offset ${at}`)
  return at + 1
}

/** The offset after the JSON value that starts at `text[at]`. */
function valueEnd(text, at) {
  at = skip(text, at)
  let depth = 0
  for (let i = at; i < text.length; i++) {
    const c = text[i]
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++
      if (depth === 0) return i + 1
    } else if (c === '{' || c === '[') {
      depth++
    } else if (c === '}' || c === ']') {
      depth--
      if (depth === 0) return i + 1
      if (depth < 0) return i
    } else if (depth === 0 && (c === ',' || SPACE.includes(c))) {
      return i
    }
  }
  if (depth !== 0) throw new Malformed('a JSON value does not end')
  return text.length
}

/** The members of the JSON object at `text[at]`, each as its exact text. */
export function rawMembers(text, at = 0) {
  at = expect(text, at, '{')
  const members = new Map()
  at = skip(text, at)
  if (text[at] === '}') return members
  for (;;) {
    const keyEnd = valueEnd(text, at)
    const key = JSON.parse(text.slice(skip(text, at), keyEnd))
    at = expect(text, keyEnd, ':')
    const start = skip(text, at)
    const end = valueEnd(text, start)
    members.set(key, text.slice(start, end))
    at = skip(text, end)
    if (text[at] === ',') {
      at++
      continue
    }
    expect(text, at, '}')
    return members
  }
}

/** The elements of the JSON array `text`, each as its exact text. */
export function rawElements(text) {
  let at = expect(text, 0, '[')
  const elements = []
  at = skip(text, at)
  if (text[at] === ']') return elements
  for (;;) {
    const start = skip(text, at)
    const end = valueEnd(text, start)
    elements.push(text.slice(start, end))
    at = skip(text, end)
    if (text[at] === ',') {
      at++
      continue
    }
    expect(text, at, ']')
    return elements
  }
}

const short = (hash) => hash.slice(0, 16)

/** One op of a session line, with its raw member texts (also the benchmarks' reader). */
export class Op {
  constructor(text) {
    this.raw = rawMembers(text)
    this.fields = JSON.parse(text)
    this.name = this.fields.op
  }
  text(field) {
    const value = this.fields[field]
    if (typeof value !== 'string') throw new Malformed(`field ${field} of op ${this.name} must be a string`)
    return value
  }
  optional(field) {
    return field in this.fields ? this.text(field) : undefined
  }
  json(field) {
    if (!this.raw.has(field)) throw new Malformed(`op ${this.name} has no ${field}`)
    return this.raw.get(field)
  }
}

/** One case's catalog and run, stepped op by op (also the benchmarks' way to start a session's run). */
export class Case {
  constructor() {
    this.catalog = new Catalog()
    this.run = null
  }

  admission(admit, line) {
    const target = this.run ?? this.catalog
    let name
    try {
      name = admit(target)
    } catch (error) {
      if (error instanceof DiscloseError && error.text !== undefined) return error.text
      throw error
    }
    return line(target, name)
  }

  step(op) {
    switch (op.name) {
      case 'tool':
        return this.tool(op)
      case 'skill': {
        const hash = op.optional('hash')
        return this.admission(
          (at) => at.admitSkill({ name: op.text('name'), disclosure: op.text('disclosure'), address: op.text('address'), hash, package: op.optional('package') }),
          (_, name) => `admitted skill ${name} (shelf, ` + (hash !== undefined ? `hash ${short(hash)})\n` : 'no hash)\n'),
        )
      }
      case 'carried_skill':
        return this.admission(
          (at) => at.admitCarriedSkill({ name: op.text('name'), disclosure: op.text('disclosure'), body: op.text('body'), hash: op.optional('hash'), package: op.optional('package') }),
          (at, name) => `admitted skill ${name} (carried, hash ${short(at.skill(name).hash)})\n`,
        )
      case 'dev':
        if (this.run) throw new Malformed('dev after start')
        this.catalog.setDevLine(op.text('text'))
        return 'dev line set\n'
      case 'start': {
        if (this.run) throw new Malformed('a second start')
        const mode = op.text('mode')
        const profile = op.optional('profile')
        this.run = this.catalog.start(mode, { profile })
        const child = profile !== undefined ? ` as a ${profile} child` : ''
        return `run started in ${mode} mode${child} at generation ${this.run.generation}\n`
      }
    }
    const run = this.run
    if (!run) throw new Malformed(`op ${op.name} before start`)
    switch (op.name) {
      case 'render':
        return run.render()
      case 'tool_defs':
        return run.toolDefs(op.optional('provider') ?? 'anthropic')
      case 'describe':
        return run.describe(op.text('name'))
      case 'call': {
        const routed = run.route(op.text('id'), op.text('name'), op.json('args'))
        return routed.kind === 'refused' ? routed.text : `routed ${routed.id} ${routed.name} ${routed.argsJson}\n`
      }
      case 'switch_mode':
        return run.switchMode(op.text('mode'))
      case 'expand':
        return run.expand(op.text('name'))
      case 'pins':
        return run.pins().map(({ name, hash }) => `${name} ${hash}\n`).join('')
      case 'digests':
        return Object.entries(run.digests()).map(([name, digest]) => `${name} ${digest}\n`).join('')
    }
    throw new Malformed(`unknown op ${op.name}`)
  }

  tool(op) {
    const origin = op.text('origin')
    const name = op.text('name')
    if (op.fields.admitted === false) return `unadmitted tool ${origin}/${name}\n`
    return this.admission(
      (at) => at.admitTool({ origin, name, description: op.text('description'), inputSchema: op.json('input_schema'), effect: op.optional('effect'), approval: op.optional('approval') }),
      (at, minted) => {
        const tool = at.tool(minted)
        return `admitted tool ${minted} (effect ${tool.effect}, approval ${tool.approval}, digest ${short(tool.digest)})\n`
      },
    )
  }
}

/** The protocol's answer to one `run`. */
export function answer(caseName, ops) {
  const replay = new Case()
  const outputs = []
  for (const [at, text] of ops.entries()) {
    try {
      outputs.push(replay.step(new Op(text)))
    } catch (error) {
      if (error instanceof Malformed || error instanceof SyntaxError || error instanceof DiscloseError) {
        return { case: caseName, errored: `ops[${at}] is not a well-formed op: ${error.message}` }
      }
      throw error
    }
  }
  return { case: caseName, outputs }
}

const { version } = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'))

/** Speaks protocol 1 on standard input and output until `bye`. */
export async function serve() {
  const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
  let number = 0
  for await (const line of lines) {
    number++
    if (!line.trim()) continue
    const members = rawMembers(line)
    const command = JSON.parse(members.get('cmd') ?? 'null')
    let reply
    if (command === 'hello') {
      reply = { implementation: { name: 'disclose (Node)', version, language: 'javascript' }, contract: [CONTRACT_VERSION] }
    } else if (command === 'run') {
      reply = answer(JSON.parse(members.get('case')), rawElements(members.get('ops')))
    } else if (command === 'bye') {
      return 0
    } else {
      process.stderr.write(`stdin line ${number}: unknown command ${JSON.stringify(command)}\n`)
      return 2
    }
    process.stdout.write(JSON.stringify(reply) + '\n')
  }
  return 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await serve()
}
