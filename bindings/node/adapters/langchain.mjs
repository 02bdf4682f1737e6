// The run's resident tools as LangChain.js tools (`tool()` with the tool's
// JSON Schema), every call answered by `Run.answer`.
//
//   const model = chatModel.bindTools(tools(run, functions))
//   const messages = [new SystemMessage(systemPrompt(run)), new HumanMessage(prompt)]
//
// Each call is answered under the model's call id (`config.toolCall.id`,
// which LangChain sets when a tool is invoked with the model's tool call),
// else under an id of the adapter's (`lc-1`, `lc-2`…, in call order).
// LangChain parses the model's argument text before a tool sees it, so an
// integer past 2^53 - 1 reaches `answer` already rounded, and it checks the
// arguments against the door's own schema (`describe` needs a `name`); what
// is inside `call`'s `args` is the catalog's to check, and `answer` does.
import { tool } from '@langchain/core/tools'

import { answer, checkFunctions, resident } from './shared.mjs'

/** The system message's text: the system segment with the dormant index. */
export function systemPrompt(run) {
  return run.render()
}

/** One LangChain tool per resident tool, each answered by the run. */
export function tools(run, functions) {
  checkFunctions(run, functions)
  let calls = 0
  return resident(run).map((spec) =>
    tool(
      (input, config) => {
        calls += 1
        const id = config?.toolCall?.id ?? `lc-${calls}`
        return answer(run, functions, id, spec.name, JSON.stringify(input ?? {}))
      },
      { name: spec.name, description: spec.description, schema: spec.input_schema },
    ),
  )
}
