// Package provider speaks the tool formats of LLM providers' APIs, with
// plain structs and no provider SDK: Anthropic's Messages API and OpenAI's
// Chat Completions and Responses APIs. The caller brings the SDK and the
// client; this package brings the tools.
//
// # Definitions
//
// [AnthropicTools] turns definitions into Messages API tools. [OpenAITools]
// and [OpenAIResponsesTools] turn them into function tools, strict where
// [StrictSchema] can make the schema strict (every property required,
// optional ones nullable, additionalProperties false at every level), and
// sent as they are, with the reason, where it cannot.
//
// # Tool calls
//
// [ParseAnthropicToolUses], [ParseOpenAIToolCalls] and
// [ParseOpenAIResponseCalls] read the calls of a response, given as JSON or
// as the SDK's own response values. A call whose arguments cannot be read (an
// OpenAI arguments string that is not valid JSON, arguments that are not an
// object, a missing name) is kept with its Err set, because the provider
// requires an answer to every call id; [MalformedResult] is that answer.
//
// # Results
//
// [NewAnthropicMessage] answers with tool_result blocks, is_error set for
// error results. OpenAI has no error flag, so [NewOpenAIMessages] and
// [NewOpenAIFunctionCallOutputs] put "Error: " before an error result's
// content, once.
//
// # The loop
//
// [Loop] runs the tool side of an agent loop: definitions re-read every
// iteration, a response's calls run as one batch through the executor,
// results turned into the provider's messages, and a guard that tells a
// model repeating the same failing call (same tool, same arguments, same
// error, [DefaultRepeatLimit] times) to change something.
//
// The round-trip tests against the official SDKs' types live in the nested
// module runtime/provider/sdktest, so that no build of this package pulls
// those SDKs in: cd runtime/provider/sdktest && go test ./...
package provider
