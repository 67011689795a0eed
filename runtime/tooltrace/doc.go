// Package tooltrace traces tool calls with OpenTelemetry: Middleware
// records one span per call an executor runs, following the OpenTelemetry
// semantic conventions for generative AI (the execute_tool operation), a
// histogram of call durations and a count of refused calls.
//
//	exec := tool.NewExecutor(reg, tool.WithMiddleware(tooltrace.Middleware()))
//
// Each span is named "execute_tool NAME" and carries gen_ai.operation.name
// (execute_tool), gen_ai.tool.name, gen_ai.tool.call.id and
// gen_ai.tool.type (function); an error result sets the span's status and
// error.type (permission_denied, invalid_arguments, timeout, or the Go type
// of the result's error, tool_error without one), and a call the
// allow-list or the schema gate refused gets an event, "tool call
// refused", holding the sentence the model was answered. The span is a
// child of the span in the call's context, so a trace that reaches the
// executor (an agent loop, an MCP request) goes on through its tools.
//
// The metrics are toolgen.tool.call.duration (a histogram, seconds) and
// toolgen.tool.call.refused (a counter), each with gen_ai.tool.name and,
// for refusals, error.type.
//
// The package imports only the OpenTelemetry API: the providers are the
// global ones (otel.SetTracerProvider, otel.SetMeterProvider) unless
// WithTracerProvider and WithMeterProvider give others, and without an SDK
// installed every call is a no-op. Tracing is off unless the middleware is
// added: an executor without it pays nothing.
package tooltrace
