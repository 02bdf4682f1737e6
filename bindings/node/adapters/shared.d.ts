// Types the adapters share (written by hand; the addon's own types are
// generated).

/**
 * A host function, keyed by minted name: called with the fitted args
 * (`parseArgs` of `argsJson`: a `BigInt` for an integer past 2^53 - 1) and
 * the exact fitted bytes; its result (or the promise of it) is the tool's
 * result.
 */
export type HostFunction = (args: any, call: { id: string; argsJson: string }) => unknown
