// Types of `disclose-catalog/adapters/langchain` (written by hand; the addon's own
// types are generated).
import type { StructuredToolInterface } from '@langchain/core/tools'

import type { Run } from '../index'
import type { HostFunction } from './shared'

export type { HostFunction }

/** The system message's text: the system segment with the dormant index. */
export declare function systemPrompt(run: Run): string

/** The run's resident tools as LangChain tools, every call answered by `run.answer`. */
export declare function tools(run: Run, functions: Record<string, HostFunction>): StructuredToolInterface[]
