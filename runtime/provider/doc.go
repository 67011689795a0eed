// Package provider speaks the tool formats of LLM providers' APIs, with
// plain structs and no provider SDK: Anthropic's Messages API, OpenAI's
// Chat Completions and Responses APIs, and Google's Gemini API
// (generateContent). The caller brings the SDK and the client; this package
// brings the tools.
//
// # Definitions
//
// [AnthropicTools] turns definitions into Messages API tools. [OpenAITools]
// and [OpenAIResponsesTools] turn them into function tools, strict where
// [StrictSchema] can make the schema strict (every property required,
// optional ones nullable, additionalProperties false at every level), and
// sent as they are, with the reason, where it cannot. [GeminiTools] turns
// them into Gemini function declarations with their schemas as JSON Schema
// (parametersJsonSchema).
//
// # Tool calls
//
// [ParseAnthropicToolUses], [ParseOpenAIToolCalls],
// [ParseOpenAIResponseCalls] and [ParseGeminiFunctionCalls] read the calls of a response, given as JSON or
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
// content, once. [NewGeminiContent] answers with functionResponse parts, the
// text under "output" or, for an error result, "error", and images and other
// media as inline data parts.
//
// # The loop
//
// [Loop] (with AnthropicStep, OpenAIStep, OpenAIResponsesStep and
// GeminiStep) runs the tool side of an agent loop: definitions re-read every
// iteration, a response's calls run as one batch through the executor,
// results turned into the provider's messages, and a guard that tells a
// model repeating the same failing call (same tool, same arguments, same
// error, [DefaultRepeatLimit] times) to change something.
//
// The round-trip tests against the official SDKs' types live in the nested
// module runtime/provider/sdktest, so that no build of this package pulls
// those SDKs in: cd runtime/provider/sdktest && go test ./...
package provider
