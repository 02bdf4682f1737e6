// The run's resident tools as Vercel AI SDK tools (`dynamicTool`, with the
// tool's JSON Schema through `jsonSchema`), every call answered by
// `Run.answer`.
//
//   const kit = toolkit(run, functions)
//   await generateText({ model: kit.model(model), system: kit.system, tools: kit.tools, prompt, stopWhen })
//
// The SDK parses the model's argument text with `JSON.parse` before a tool
// sees it, which rounds an integer past 2^53 - 1. `kit.model(model)` wraps
// the model so each tool call's argument text is kept as the model wrote
// it, by call id, and handed to `answer`; a tool called without it is
// answered from `JSON.stringify` of what the SDK parsed. `jsonSchema` is
// given no validator: the SDK does not check the arguments, `answer` does.
import { dynamicTool, jsonSchema } from 'ai'

import { DiscloseError } from '../index.js'
import { answer, checkFunctions, resident } from './shared.mjs'

/**
 * One run's `tools` (keyed by name, in the tool list's order), its
 * `system` prompt (the system segment with the dormant index), and
 * `model(model)`, the wrapper that keeps the argument text.
 */
export function toolkit(run, functions) {
  checkFunctions(run, functions)
  const texts = new Map()
  const tools = {}
  for (const spec of resident(run)) {
    tools[spec.name] = dynamicTool({
      description: spec.description,
      inputSchema: jsonSchema(spec.input_schema),
      execute: (input, { toolCallId }) => {
        const text = texts.get(toolCallId)
        texts.delete(toolCallId)
        return answer(run, functions, toolCallId, spec.name, text ?? JSON.stringify(input ?? {}))
      },
    })
  }
  return { system: run.render(), tools, model: (model) => keepingArgText(model, texts) }
}

/**
 * `model`, with each tool call's argument text (a tool-call part's
 * `input`) kept by call id as it passes, from `doGenerate` and from
 * `doStream`. Every other member is the model's own.
 */
function keepingArgText(model, texts) {
  if (model === null || typeof model !== 'object') {
    throw new DiscloseError(
      `the model must be a model object (such as a provider's model), not ${model === null ? 'null' : typeof model}: ` +
        'a gateway id is resolved inside the SDK, where the argument text cannot be kept',
      'input',
    )
  }
  const keep = (part) => {
    if (part && part.type === 'tool-call' && typeof part.input === 'string') texts.set(part.toolCallId, part.input)
  }
  return new Proxy(model, {
    get(target, key) {
      if (key === 'doGenerate') {
        return async (options) => {
          const result = await target.doGenerate(options)
          for (const part of result.content ?? []) keep(part)
          return result
        }
      }
      if (key === 'doStream') {
        return async (options) => {
          const result = await target.doStream(options)
          const stream = result.stream.pipeThrough(
            new TransformStream({
              transform(part, controller) {
                keep(part)
                controller.enqueue(part)
              },
            }),
          )
          return { ...result, stream }
        }
      }
      const value = Reflect.get(target, key, target)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}
