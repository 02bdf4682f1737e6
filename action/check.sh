#!/usr/bin/env bash
# The action's gate step (action.yml): `disclose check` with the action's
# inputs, which reach it only through the environment:
#   DISCLOSE         the binary the install step put in place;
#   INPUT_CORPUS, INPUT_GOLDEN   the corpus and golden directories;
#   INPUT_IMPL, INPUT_EXPECT     one command (one expectations file) a line;
#   INPUT_PARTITION  `K/N` or `hash:K/N`;
#   INPUT_JUNIT      the JUnit report's path (default: under RUNNER_TEMP);
#   INPUT_SUMMARY    `true` to add the Markdown report to the step summary;
#   INPUT_ARGS       more arguments, split at whitespace, never expanded.
# Writes the outputs `exit-code` and `junit`, and exits with the gate's code.
set -euo pipefail
disclose="${DISCLOSE:?DISCLOSE is not set (the output of the install step)}"

args=(check "${INPUT_CORPUS:-corpora}" --golden "${INPUT_GOLDEN:-golden}")
while IFS= read -r line; do
    [ -n "${line//[[:space:]]/}" ] && args+=(--impl "$line")
done <<<"${INPUT_IMPL:-}"
while IFS= read -r line; do
    [ -n "${line//[[:space:]]/}" ] && args+=(--expect "$line")
done <<<"${INPUT_EXPECT:-}"
partition="${INPUT_PARTITION:-}"
if [ -n "$partition" ]; then
    [[ "$partition" =~ ^[0-9]+/[0-9]+$ ]] && partition="hash:$partition"
    args+=(--partition "$partition")
fi
junit="${INPUT_JUNIT:-${RUNNER_TEMP:?RUNNER_TEMP is not set}/disclose-check.junit.xml}"
args+=(--junit "$junit")
summary=""
case "${INPUT_SUMMARY:-true}" in
    true)
        summary="${RUNNER_TEMP:?RUNNER_TEMP is not set}/disclose-check.summary.md"
        args+=(--summary "$summary")
        ;;
    false) ;;
    *)
        echo "::error title=disclose action::the summary input is \`${INPUT_SUMMARY}\`; it takes true or false"
        exit 2
        ;;
esac
# Whitespace-separated words, never globbed or expanded.
set -f
read -r -a extra <<<"${INPUT_ARGS:-}"
set +f
args+=(${extra[@]+"${extra[@]}"})  # bash 3.2 (macOS) with set -u

echo "disclose ${args[*]}"
code=0
"$disclose" "${args[@]}" || code=$?
echo "exit-code=$code" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set}"
echo "junit=$junit" >>"$GITHUB_OUTPUT"
if [ -n "$summary" ] && [ -f "$summary" ] && [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$summary" >>"$GITHUB_STEP_SUMMARY"
fi
exit "$code"
