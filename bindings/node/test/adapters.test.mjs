// Each adapter against its real framework (pinned in package.json's
// devDependencies), driven offline by the framework's own test model: the
// model is shown the doors and the index, every call goes through
// `Run.answer`, `execute` runs the host's function, and the recorded
// session replays to what the model was given and passes `disclose check`.
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { test } from 'node:test'

import { DiscloseError, Recorder } from 'disclose-catalog'
import * as aiSdk from 'disclose-catalog/adapters/ai-sdk'
import * as langchain from 'disclose-catalog/adapters/langchain'

import { checkRecorded, replayed, scratch } from './helpers.mjs'

const SCHEMA = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] }

// What the scripted model asks, in order: a keyword describe, a misfit,
// a fitted call (with a number only the text keeps).
const CALLS = [
  ['c1', 'describe', '{"name":"open issue"}'],
  ['c2', 'call', '{"name":"github__create_issue","args":{}}'],
  ['c3', 'call', '{"name":"github__create_issue","args":{"title":"Flaky","n":18446744073709551615}}'],
]

/** A recording run with one dormant tool, and the host's function for it. */
function recording(label) {
  const path = join(scratch('disclose-adapter-'), `${label}.jsonl`)
  const recorder = new Recorder(path, { about: `the ${label} adapter's run` })
  recorder.admitTool({
    origin: 'github', name: 'create_issue', description: 'Open an issue. Needs a title.',
    inputSchema: SCHEMA, effect: 'reversible', approval: 'never',
  })
  const ran = []
  const functions = {
    github__create_issue: (args, call) => {
      ran.push({ args, call })
      return `opened ${args.title}`
    },
  }
  return { path, recorder, run: recorder.start('work'), ran, functions }
}

/** What the model read back and what the host ran, against the recording. */
function checkSession({ path, ran }, results) {
  assert.match(results[0], /^no capability is named "open issue"; closest matches:\n- github__create_issue/)
  assert.match(results[1], /^refused E_INVALID_ARGS call\.misfit:/)
  assert.equal(results[2], 'opened Flaky')
  assert.equal(ran.length, 1)
  assert.equal(ran[0].args.title, 'Flaky')
  assert.equal(ran[0].call.id, 'c3')
  const blocks = replayed(path)
  const outputs = blocks.filter((block) => block.op === 'call' || block.op === 'describe').map((block) => block.output)
  // Every call became one op; its replay gives the model the same text.
  assert.equal(outputs.length, 3)
  assert.deepEqual(outputs.slice(0, 2), results.slice(0, 2))
  assert.ok(outputs[2].startsWith('routed c3 github__create_issue '), outputs[2])
  assert.match(checkRecorded(path), /2 passed, 0 failed/)
  return blocks.find((block) => block.op === 'render').output
}

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
}

/** The AI SDK's doors as the model saw them: name and JSON Schema. */
function toolsSeen(call) {
  return call.tools.map((tool) => [tool.name, tool.inputSchema])
}

test('the AI SDK: generateText through the toolkit, with the argument text kept', async () => {
  const { generateText, stepCountIs } = await import('ai')
  const { MockLanguageModelV3 } = await import('ai/test')
  const session = recording('ai-sdk')
  const model = new MockLanguageModelV3({
    doGenerate: [
      {
        content: CALLS.map(([toolCallId, toolName, input]) => ({ type: 'tool-call', toolCallId, toolName, input })),
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      },
      { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },
    ],
  })
  const kit = aiSdk.toolkit(session.run, session.functions)
  const result = await generateText({
    model: kit.model(model), system: kit.system, tools: kit.tools, prompt: 'open an issue', stopWhen: stepCountIs(3),
  })
  const doors = session.run.toolsFor('anthropic').map((tool) => [tool.name, tool.input_schema])
  session.recorder.finish()
  assert.equal(result.text, 'done')
  const results = result.steps[0].toolResults.map((part) => part.output)
  const render = checkSession(session, results)
  const [first] = model.doGenerateCalls
  assert.deepEqual(first.prompt[0], { role: 'system', content: render })
  assert.deepEqual(toolsSeen(first), doors)
  // The model's text reached `answer`: the u64 kept its digits.
  assert.equal(session.ran[0].call.argsJson, '{"n":18446744073709551615,"title":"Flaky"}')
  assert.equal(session.ran[0].args.n, 18446744073709551615n)
})

test('the AI SDK: streamText keeps the argument text too', async () => {
  const { streamText, stepCountIs } = await import('ai')
  const { MockLanguageModelV3, convertArrayToReadableStream } = await import('ai/test')
  const session = recording('ai-sdk-stream')
  const turn = (parts, unified) => ({
    stream: convertArrayToReadableStream([
      { type: 'stream-start', warnings: [] },
      ...parts,
      { type: 'finish', finishReason: { unified, raw: undefined }, usage },
    ]),
  })
  const model = new MockLanguageModelV3({
    doStream: [
      turn(CALLS.map(([toolCallId, toolName, input]) => ({ type: 'tool-call', toolCallId, toolName, input })), 'tool-calls'),
      turn([{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'done' }, { type: 'text-end', id: 't' }], 'stop'),
    ],
  })
  const kit = aiSdk.toolkit(session.run, session.functions)
  const result = streamText({
    model: kit.model(model), system: kit.system, tools: kit.tools, prompt: 'open an issue', stopWhen: stepCountIs(3),
  })
  assert.equal(await result.text, 'done')
  const steps = await result.steps
  session.recorder.finish()
  checkSession(session, steps[0].toolResults.map((part) => part.output))
  assert.equal(session.ran[0].call.argsJson, '{"n":18446744073709551615,"title":"Flaky"}')
})

test('LangChain.js: a fake chat model calls the tools', async () => {
  const { fakeModel } = await import('@langchain/core/testing')
  const { AIMessage, HumanMessage, SystemMessage } = await import('@langchain/core/messages')
  const session = recording('langchain')
  const tools = langchain.tools(session.run, session.functions)
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]))
  assert.deepEqual(Object.keys(byName), ['describe', 'call'])
  assert.deepEqual(byName.call.schema, session.run.toolsFor('anthropic')[1].input_schema)
  const fake = fakeModel()
    .respondWithTools(CALLS.map(([id, name, args]) => ({ id, name, args: JSON.parse(args) })))
    .respond(new AIMessage('done'))
  const model = fake.bindTools(tools)
  const messages = [new SystemMessage(langchain.systemPrompt(session.run)), new HumanMessage('open an issue')]
  const results = []
  for (;;) {
    const reply = await model.invoke(messages)
    messages.push(reply)
    if (!reply.tool_calls?.length) break
    for (const call of reply.tool_calls) {
      const message = await byName[call.name].invoke(call)
      results.push(String(message.content))
      messages.push(message)
    }
  }
  session.recorder.finish()
  assert.equal(messages.at(-1).content, 'done')
  const render = checkSession(session, results)
  assert.equal(fake.calls[0].messages[0].content, render)
  // LangChain parsed the model's text before the tool saw it: the u64 was
  // rounded then (and JSON.stringify spells it so), as the adapter says.
  assert.equal(session.ran[0].call.argsJson, '{"n":1.8446744073709552e+19,"title":"Flaky"}')
})

test('bad input to the adapters is a DiscloseError, and the run goes on', () => {
  const session = recording('bad-input')
  const cases = [
    [() => aiSdk.toolkit(session.run, { github__open_issue: () => 'x' }), /no admitted tool is named github__open_issue; .*\(admitted: github__create_issue\)$/],
    [() => aiSdk.toolkit(session.run, { github__create_issue: 'x' }), /the function for github__create_issue is string, not a function/],
    [() => aiSdk.toolkit(session.run, null), /functions must be an object keyed by minted name, not null/],
    [() => langchain.tools(session.run, [() => 'x']), /functions must be an object keyed by minted name, not an array/],
    [() => aiSdk.toolkit(session.run, {}).model('openai/gpt-5'), /the model must be a model object .* not string/],
  ]
  for (const [bad, message] of cases) {
    assert.throws(bad, (error) => error instanceof DiscloseError && error.code === 'input' && message.test(error.message))
  }
  // A host function the adapter was not given is named when the call comes.
  const kit = aiSdk.toolkit(session.run, {})
  assert.throws(
    () => kit.tools.call.execute({ name: 'github__create_issue', args: { title: 'x' } }, { toolCallId: 'c9', messages: [] }),
    (error) => error instanceof DiscloseError && error.code === 'input' && /the host has no function for github__create_issue/.test(error.message),
  )
  assert.equal(session.run.answer('c1', 'describe', '{"name":"github__create_issue"}').kind, 'text')
  session.recorder.finish()
})
