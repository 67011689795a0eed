// Package tool is the runtime core of toolgen: the Tool interface and its
// Definition, the immutable Input and Context a call receives, the Result
// it gives back, the Registry, and the Executor, the one gate every call
// passes.
//
// # Writing a tool
//
// Generated tools come from annotated structs (see cmd/toolgen). A tool of
// one to three parameters, or one whose keys are known only at run time, is
// written by hand with New:
//
//	greet := tool.New(tool.Definition{
//		Name:        "Greet",
//		Description: "Greets someone by name.",
//		InputSchema: map[string]any{
//			"type":                 "object",
//			"properties":           map[string]any{"name": map[string]any{"type": "string"}},
//			"required":             []any{"name"},
//			"additionalProperties": false,
//		},
//	}, func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
//		name, err := tool.Param[string](in, "name")
//		if err != nil {
//			return tool.FailureFrom(err)
//		}
//		return tool.Success("Hello, " + name + "!")
//	})
//
// How the runtime may run and judge a tool is data, fields of its
// Definition, for generated and hand-written tools alike: Concurrency
// (Sequential by default, or Safe beside other tools of a batch), Interrupt,
// SideEffect (ReadOnly, Mutating by default, Destructive: the type the
// allow-list's ceiling uses, permission.SideEffect), OpenWorld, Loading
// (Eager, or Deferred until tool search finds it), Subject (the input field
// the allow-list judges the call by) and Rule (a tool's own judgement of
// its allow-list patterns).
//
// A tool reads its parameters with Param (required: absent or mistyped is
// an error), ParamOr (with a default) and OptParam (optional: absence is
// reported, not guessed), each for a string, a boolean or a number of any
// Go kind: Param[string](in, "name"), ParamOr(in, "limit", 100). Their
// errors are worded as the schema gate words its violations, so a tool
// can hand them to the model as they are.
//
// Every Input carries its arguments as JSON bytes: DecodeInput keeps the
// bytes it checked, NewInput encodes its map once. Generated binders (see
// package toolimpl) read them through Document in one pass.
//
// # Behaviours are data
//
// How the runtime may run and judge a tool is a field of its Definition:
// Concurrency (Sequential by default, or Safe beside other tools of a
// batch), Interrupt (how it reacts to cancellation), SideEffect (the one
// side-effect type, permission.SideEffect; zero means Mutating), OpenWorld,
// Idempotent, Loading (Eager, or Deferred until tool search finds it), Subject (the
// input field the allow-list judges a call by), Rule (a permission rule of
// the tool's own) and ChecksInput (Execute checks its input itself, so the
// executor skips the schema gate). Generated tools set them from their
// directives; a hand-written tool sets them in the Definition it gives New.
//
// # The executor
//
// Executor.Execute takes one call through, in this order: the middleware
// (WithMiddleware: func(next Handler) Handler, net/http's shape, around
// everything below), normalise the name (a leading "functions." is
// removed), find the tool, check permission (the allow-list, then any
// WithPermission function), apply the schema gate (schema.Warn by default:
// log and run; schema.Enforce: answer with the violations and do not run),
// run pre-hooks (which may block), Execute the tool inside a recover, within
// its Definition.Timeout if it has one, run post-hooks (which may rewrite
// the result), and, for a tool with an OutputSchema under schema.Warn or
// schema.Enforce, hold a successful result's structured content to that
// schema: a result whose structured content is missing, not an object or
// breaks the schema (a nil slice where the schema says array) is withheld
// and answered "Tool 'X' ran, but its result was not sent: it does not
// match the tool's output schema (field 'labels' must be an array). This is
// a fault of the tool, not of the call.", logged at ERROR (see OutputError).
// Permission comes before the schema gate so that a denied tool's schema
// errors cannot tell the model the tool exists. The gate does not run for a
// tool whose Definition sets ChecksInput: its own violations, in the same
// sentences, are the answer (see Executor for the rule and what pre-hooks
// see). The executor reads each call's Definition once.
//
// The executor's code is split by concern: executor.go (the type and the
// pipeline), options.go, offer.go (what the allow-list offers and permits),
// gate.go, output.go (the output check), hooks.go, middleware.go,
// watchdog.go (the cancel grace),
// timeout.go (a tool's own time bound), limit.go (result bounds) and
// batch.go.
//
// Executor.ExecuteBatch runs the calls of one model response. It runs them
// in parallel only when WithConcurrency enabled it, there are two or more
// calls, and every tool declares Safe concurrency with an interrupt
// behaviour that can share a worker; one sequential or unknown tool makes
// the whole batch sequential. Results always come back in call order.
//
// Logging goes through log/slog: DEBUG for normal flow, WARN for expected
// errors and the model's mistakes, ERROR for panics and other surprises.
//
// # Rich results, progress and logging
//
// A Result's Content is its text form, for models and logs; Parts carry
// richer content when a tool has it (SuccessParts(Part{Kind: TextPart,
// Text: ...}, Part{Kind: ImagePart, Data: png, MIMEType: "image/png"}):
// text, images, audio, embedded resources, resource links), and Structured a value matching the Definition's
// OutputSchema (Result.WithStructured; a generated //tool:output tool sets
// it from what its function returns). MCP servers and the provider packages
// send parts as their clients' content blocks.
//
// A tool reports how far it has come with tc.ReportProgress and logs for
// the user of its host with tc.Logger(); each does nothing unless the
// caller bound ProgressKey or LoggerKey, as an MCP server does for every
// call. Package runtime/tool/ask lets it ask the user for input or the
// host's model for a completion.
//
// Definition.Hints say what a call does to the world (read-only,
// destructive, idempotent, open-world) for hosts; they are derived from the
// declared behaviours (SideEffect, Idempotent, OpenWorld), and hints that
// contradict them are a registration error (see Hints).
//
// # Failures are results
//
// Tool.Execute never panics and never returns a Go error. Every failure,
// including a panic, an unknown tool, a denied call and a schema violation,
// is a Result with IsError set and a sentence the model can act on.
package tool
