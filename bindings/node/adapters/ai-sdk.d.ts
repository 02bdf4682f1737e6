// Types of `disclose-catalog/adapters/ai-sdk` (written by hand; the addon's own
// types are generated).
import type { LanguageModel, Tool } from 'ai'

import type { Run } from '../index'
import type { HostFunction } from './shared'

export type { HostFunction }

/** One run's tools, system prompt and model wrapper. */
export interface Toolkit {
  /** The run's resident tools (the doors and the host's resident tools), keyed by name. */
  readonly tools: Record<string, Tool>
  /** The system prompt: the system segment with the dormant index. */
  readonly system: string
  /**
   * `model` (a model object, not a gateway id), keeping each tool call's
   * argument text as the model wrote it.
   */
  model<M extends Exclude<LanguageModel, string>>(model: M): M
}

/** The run's resident tools as AI SDK tools, every call answered by `run.answer`. */
export declare function toolkit(run: Run, functions: Record<string, HostFunction>): Toolkit
