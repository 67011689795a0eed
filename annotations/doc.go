// Package annotations is the grammar toolgen reads: //tool: directives in
// the doc comment of an input struct, and options in its fields' tool
// tags. It parses them ([ParseDirectives], [ParseTag]) into their values
// ([Directives], [Options]) with positions; the loader turns those into the
// generator's model, which the generator (cmd/toolgen), its -check mode and
// the vet analyzers share. This comment is the reference of the whole
// grammar.
//
// # A tool
//
// A tool is a named struct type whose doc comment holds //tool:name:
//
//	// EchoInput is the input of the Echo tool.
//	//
//	//tool:name Echo
//	//tool:description Repeats a message back.
//	//tool:concurrency safe
//	type EchoInput struct {
//		// The message to repeat.
//		Message string `json:"message" tool:"required"`
//		// How many times to repeat it.
//		Times int `json:"times,omitempty" tool:"default=1,min=1,max=100"`
//		// How to join the copies.
//		Sep string `json:"sep,omitempty" tool:"enum=space|newline|none"`
//	}
//
// toolgen then generates BindEchoInput, NewEchoTool and the schema in
// echo_toolgen.go (see [GeneratedName]).
//
// # Type directives
//
// Directives are line comments with no space after the slashes, so go doc
// leaves them out of the documentation. Each may appear once, except
// //tool:description and //tool:keywords, whose lines are joined.
//
//	//tool:name Echo
//
// Required. The tool's name as the model sees it: letters, digits, '_',
// '-' and '.', starting with a letter or '_'. Unique within a package.
//
//	//tool:description Repeats a message back.
//
// The description the model sees; write one for every tool. Without it,
// toolgen warns at the tool's directives (file:line:col: warning: ...,
// also under -check and from the toolgencheck analyzer; the exit code is
// not changed) and the doc comment's prose (directives left out, lines of
// a paragraph joined) stands in, less a first sentence that only restates
// the type's or the tool's name, such as "EchoInput is the input of the
// Echo tool." (see [DocDescription]). When nothing else is left, the
// model sees no description.
//
//	//tool:concurrency safe
//	//tool:concurrency sequential
//
// Whether calls may run in parallel with other safe tools. Undeclared, the
// runtime's default (sequential) applies.
//
//	//tool:interrupt cooperative
//	//tool:interrupt non-interruptible
//	//tool:interrupt externally-terminated
//
// How the tool reacts to cancellation: it watches its context (the
// default), runs to completion whatever it says, or is stopped from
// outside (a process killed) and so gets a worker of its own.
//
//	//tool:side-effect read-only
//	//tool:side-effect mutating
//	//tool:side-effect destructive
//
// What the tool changes. Undeclared, the runtime assumes mutating.
//
//	//tool:subject path file_path
//	//tool:subject command command
//
// The permission subject: the kind (command or path) and the wire name of
// a top-level string field. The generated PermissionSubject reads it from
// the raw input; a missing, mistyped or blank value cannot be judged.
//
//	//tool:loading eager
//	//tool:loading deferred
//
// Whether the tool is always offered or only once tool search finds it.
//
//	//tool:keywords taxi, cab, ride, Uber
//
// Search hints: the words users say when they want the tool that its name
// and description do not (synonyms, product names, other languages),
// separated by commas. Repeated lines add to the list; duplicates are
// dropped. They become the Definition's Keywords, which tool search
// indexes as a field of their own; the model is not shown them.
//
//	//tool:title Read file
//
// A short human-readable name for hosts' user interfaces: the
// Definition's Title, MCP's title. The model is shown the name and
// description, not the title.
//
//	//tool:open-world
//
// The tool reaches beyond a closed domain: the network, the web, any
// program a shell runs. The generated tool declares it (OpenWorld), and an
// MCP server says openWorldHint: true; without it, false.
//
//	//tool:idempotent
//
// Calling the tool again with the same arguments has no further effect
// (setting a value, replacing a list, stopping a process). The generated
// tool declares it (Idempotent), and an MCP server says idempotentHint:
// true. A read-only tool is idempotent without it; any other tool is not
// unless it says so: that a tool may run beside others (//tool:concurrency
// safe) says nothing of what a second call does. MCP's readOnlyHint and
// destructiveHint come from //tool:side-effect (see tool.Hints).
//
//	//tool:unexported
//
// The generated constructor and binder are unexported: newWeatherTool and
// bindWeatherInput instead of NewWeatherTool and BindWeatherInput, for a
// package that builds its tools itself (over its own state, with its own
// checks) and offers them through functions of its own, so that no caller
// can put an arbitrary function behind the tool's definition. The input
// type, the definition and the schema are unchanged.
//
//	//tool:output WeatherReport
//
// The struct type (of the same package) the tool's function returns. Its
// schema, built as an input struct's is (json tags, doc comments, tool
// tags), becomes the Definition's OutputSchema, and when run returns a
// WeatherReport (or a non-nil *WeatherReport) the generated Execute
// renders it as structured content: the JSON text as content and the
// value as structured content (MCP's outputSchema and structuredContent).
// The constructor takes only a function returning WeatherReport or
// *WeatherReport, so every success carries the structured content the
// schema promises.
//
//	//tool:timeout 30s
//
// A bound on each call, as a Go duration (30s, 2m, 1m30s, 500ms; positive,
// at least 1ms): the Definition's Timeout. The executor runs the tool with
// a context that ends after it and answers a call that ran out of time as
// the Bash tool does, "[timed out after 30000ms]".
//
// Only the directives given are generated as behaviour methods, so an
// undeclared behaviour keeps the runtime's default.
//
// # Tools from functions
//
// The same directives in a function's (or method's) doc comment make the
// function a tool; //tool:param describes each parameter:
//
//	// Add adds two digits.
//	//
//	//tool:name calculator
//	//tool:param digit1 min=0,max=9 The first digit to add.
//	//tool:param digit2 min=0,max=9 The second digit to add.
//	func Add(ctx context.Context, digit1, digit2 int) (int, error)
//
//	//tool:param NAME [OPTIONS] Description.
//
// One line per parameter (every parameter needs one, with a description):
// OPTIONS, when the second word reads as them, are a struct field's tool
// tag options (min=0,max=9, enum=a|b, default=3, pattern=..., format=...)
// plus wire=NAME for a wire name other than the parameter's own. A
// parameter that is not a pointer is required unless it has a default. A
// leading context.Context and tool.Context are passed through, not
// properties. Results: (T, error), T, or error (a success then answers
// "Done."). Variadic, func and channel parameters are refused.
//
//	//tool:input AddArgs
//
// The name of the input struct toolgen generates with the tool (default:
// the function's name, lower-cased first, and "Input": addInput; for a
// method the receiver type's name too: shelfSearchInput). The public
// constructor is NewAddTool() for a function and NewShelfSearchTool(recv)
// for a method of Shelf; a guard on the function's signature stops the
// build when the function changes without regeneration.
//
// # Enum types
//
// A named string type marked //tool:enum has its constants as its allowed
// values, wherever it is used (as a field, a slice element, a map value,
// and from other packages too). The values are those of every constant of
// exactly that type in the declaring package, in declaration order:
//
//	// Level is a log level.
//	//
//	//tool:enum
//	type Level string
//
//	const (
//		Debug Level = "debug"
//		Info  Level = "info"
//	)
//
// A marked type without constants is an error, and so is an enum option
// on a field whose type is already marked.
//
// # Fields
//
// Every exported field is bound, under the wire name of its json tag. The
// wire name is used exactly as written and never derived from the Go
// name; names that are not Go identifiers are fine:
//
//	CaseInsensitive bool `json:"-i,omitempty"`
//
// A field with json:"-" is skipped; an exported field without a json name
// is an error; an unexported field is skipped, and an error if it has a
// tool tag. Fields of an embedded struct without a json name are promoted,
// as encoding/json promotes them; a duplicate wire name in one object is
// an error (there is no depth rule). An embedded pointer is an error.
//
// The field's doc comment (or, without one, its line comment) is its
// description in the schema.
//
// # Field types
//
//	string, bool                 string, boolean
//	int…int64, uint…uint64       integer (range of the Go type checked; uint has minimum 0)
//	float32, float64             number (finite; float32's range checked)
//	*T                           as T; nil when absent
//	[]T, [N]T                    array (an array needs exactly N items)
//	map[K]T, K a string kind     object with additionalProperties T
//	struct (named or not)        object, additionalProperties false, recursively
//	json.RawMessage, any         accepted as is (a raw value is re-encoded)
//	time.Time                    string, format date-time (RFC 3339)
//	time.Duration                string in Go syntax ("1m30s")
//
// Named types over these, aliases and types from other packages resolve
// through type information. Unsupported, each an error: channels,
// functions, complex numbers, uintptr, interfaces other than any, maps
// with non-string keys, []byte (use string or json.RawMessage), types
// implementing json.Unmarshaler or encoding.TextUnmarshaler (other than
// time.Time), and recursive types: a struct that contains itself, directly
// or through slices, maps or pointers, is rejected; use json.RawMessage or
// any for the recursive part and decode it in the tool.
//
// # Tag options
//
// The tool tag holds options separated by commas:
//
//	tool:"required"             the parameter must be given (not with default)
//	tool:"enum=a|b|c"           allowed string values, in this order
//	tool:"default=10"           value when absent; must fit the type and every constraint
//	tool:"min=1"                lowest number (inclusive)
//	tool:"max=100"              highest number (inclusive)
//	tool:"min=1,max=20,clamp"   out-of-range numbers are clamped instead of rejected
//	tool:"minlen=1"             fewest characters (Unicode code points)
//	tool:"maxlen=80"            most characters
//	tool:"minitems=1"           fewest slice items
//	tool:"maxitems=10"          most slice items
//	tool:"pattern='^[a-z]+$'"   a regular expression (package regexp), checked at generate time
//	tool:"format=date-time"     one of date-time, date, time, duration, email, uri, uuid
//
// Options on a slice or map of scalars (enum, pattern, format, min, max,
// minlen, maxlen) apply to its elements; minitems and maxitems to the
// slice. A default is allowed on string, bool, number, time.Time and
// time.Duration fields, not on pointers.
//
// # Values with commas
//
// A value runs to the next comma, or is wrapped in single quotes to hold
// commas; inside quotes, two single quotes stand for one:
//
//	tool:"default='a,b'"
//	tool:"pattern='^[^,]*$'"
//	tool:"default='it''s'"
//
// A struct tag's value is a Go string, so a backslash in a pattern is
// written twice: tool:"pattern='^\\d+$'". Enum values cannot contain '|'.
//
// # Errors
//
// Every mistake is reported as file:line:col: message, naming what to
// change, and all of them in one run; nothing is written then. For
// example:
//
//	echo.go:17:1: unknown directive //tool:descripton; did you mean //tool:description?
//	echo.go:22:50: field Times: tool tag: unknown option "maxx"; did you mean "max"?
//	echo.go:23:2: field Sep has no wire name; add a json tag, e.g. json:"sep" (wire names are never derived from Go names)
package annotations
