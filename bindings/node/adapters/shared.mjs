// What the framework adapters share: the run's resident tools (the doors
// `describe` and `call`, and the host's own resident tools), the check that
// every host function names an admitted tool, and one tool call through
// `Run.answer`: an `execute` answer runs the host's function, a `text` or
// `refused` answer is the text the model reads.
import { DiscloseError, parseArgs } from '../index.js'

/** The run's resident tools, in the tool list's order: {name, description, input_schema}. */
export function resident(run) {
  return run.toolsFor('anthropic')
}

const DOORS = ['describe', 'call']

/** Every function must be keyed by the minted name of an admitted tool. */
export function checkFunctions(run, functions) {
  if (functions === null || typeof functions !== 'object' || Array.isArray(functions)) {
    throw inputError(`functions must be an object keyed by minted name, not ${describeValue(functions)}`)
  }
  // The doors are the catalog's own: `answer` never executes them.
  const admitted = Object.keys(run.digests()).filter((name) => !DOORS.includes(name))
  const unknown = Object.keys(functions).filter((name) => !admitted.includes(name)).sort()
  if (unknown.length > 0) {
    throw inputError(
      `no admitted tool is named ${unknown.join(', ')}; functions are keyed by minted name ` +
        `(admitted: ${admitted.sort().join(', ')})`,
    )
  }
  for (const [name, fn] of Object.entries(functions)) {
    if (typeof fn !== 'function') throw inputError(`the function for ${name} is ${describeValue(fn)}, not a function`)
  }
}

/**
 * One tool call through the catalog, with the model's argument text:
 * the host function's result (it may be a promise), or the text the
 * model reads. The function is called as `fn(args, {id, argsJson})`,
 * `args` from `parseArgs` (a `BigInt` for an integer past 2^53 - 1) and
 * `argsJson` the exact fitted bytes.
 */
export function answer(run, functions, id, name, argsJson) {
  const answered = run.answer(id, name, argsJson)
  if (answered.kind !== 'execute') return answered.text
  const fn = functions[answered.name]
  if (fn === undefined) throw inputError(`the host has no function for ${answered.name}`)
  return fn(parseArgs(answered.argsJson), { id: answered.id, argsJson: answered.argsJson })
}

function inputError(message) {
  return new DiscloseError(message, 'input')
}

function describeValue(value) {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value
}
