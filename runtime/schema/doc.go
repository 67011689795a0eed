// Package schema is the schema gate: it checks a tool call's arguments
// against the tool's JSON input schema before the tool runs, and it words
// every violation, for the gate and for generated binders alike.
//
// A schema is compiled once with [Compile]; [Validator.Validate] then checks
// each call's arguments and returns [Violations], nil when there are none.
// [Validate] does both for a schema used once.
//
// # What the gate checks
//
// Only the four mistakes models make, on the parameters of the top-level
// object:
//
//   - a required parameter is missing; a null value counts as missing;
//   - a value has the wrong JSON type;
//   - a value is not one of the property's "enum" values;
//   - a parameter is not declared, and "additionalProperties" is exactly
//     false (absent, true or a schema means undeclared names are fine).
//
// A property of type object or array is checked for that type only: an
// object sent for an array is a violation, but the gate does not look at
// the object's members or the array's items.
//
// Types are JSON types, told from the Go values encoding/json decodes into
// and from Go's own kinds:
//
//   - "integer" accepts 3 and 3.0, any Go integer kind, and a json.Number
//     with an integral value; it rejects 3.5 and "3";
//   - "number" accepts every number;
//   - "string" accepts strings; a numeric string is a string, not a number;
//   - "array" accepts []any and every other slice or Go array ([]byte too);
//   - "object" accepts map[string]any and other maps;
//   - a json.RawMessage has the type of its JSON text; nil slices, maps and
//     pointers are null, as encoding/json writes them;
//   - a type list such as ["string", "null"] accepts any listed type.
//
// Values whose JSON form the gate cannot tell without running their code
// (json.Marshaler, encoding.TextMarshaler, structs, funcs) are let through.
//
// "enum" values compare as JSON values: 1 equals 1.0, and enums of numbers,
// booleans, null, arrays and objects work as well as enums of strings.
//
// # What the gate skips, and why
//
// The gate fails open on schemas it does not own: MCP servers' schemas
// arrive as their authors wrote them. A property is not checked at all when
// it uses "$ref", "oneOf", "anyOf", "allOf" or "not", when its "type" is
// missing, malformed or names a type that is not a JSON-schema type, or when
// its schema is the boolean true or false; its siblings are still checked.
// Such a property is still declared (it is not unknown) and, when the
// schema's "required" lists it, still required: "required" belongs to the
// parent object, which the gate does understand. A name listed in
// "required" but absent from "properties" is likewise declared and required.
// An empty "enum" is ignored.
//
// Ranges and formats ("minimum", "maximum", "minLength", "maxLength",
// "minItems", "pattern", "format", "default", ...) are not the gate's: they
// belong to the tool, whose generated binder checks them with the same
// sentences ([BelowMinimum], [TooShort], ...).
//
// [Compile] fails only for a schema it cannot read: "properties" that is
// not an object, "required" that is not a list of strings, or a property
// schema that is neither an object nor a boolean. Everything else it does
// not know is ignored.
//
// # Sentences
//
// Models learn these sentences; they are part of the contract, byte for
// byte, and worded only by this package's constructors:
//
//	Parameter 'x' is required (string). The tool was not executed.
//	Parameter 'x' must be an integer. The tool was not executed.
//	Parameter 'x' must be one of [a, b], but was 'c'. The tool was not executed.
//	Unknown parameter 'file_paht'. Did you mean 'file_path'? The tool was not executed.
//	Unknown parameter 'zzz'. The tool was not executed.
//
// The type takes its article: a string, an integer, a number, a boolean, an
// array, an object. A type list is worded without "null" (a null value
// counts as missing, so null is never the fix): ["string", "null"] gives
// "must be a string" and "is required (string)", ["string", "integer"]
// gives "must be a string or an integer" and "is required (string or
// integer)". A required parameter whose type the gate does not know is
// "Parameter 'x' is required. The tool was not executed.".
//
// Messages carry parameter names and types only; only the enum sentence
// echoes the value: a string as it is, anything else as compact JSON, cut
// to [EchoLimit] (100) characters followed by "...". The name in the
// unknown-parameter sentence is cut the same way. Control characters are
// written as JSON escapes (\n, \t, \u0001), so each message is one line.
// The allowed values come from the schema and are written in full (each cut
// at 4096 bytes, a guard against Go values that contain themselves). The
// "Did you mean" suggestion comes from [Suggest].
//
// # Order
//
// [Validator.Validate] reports, in this order: the missing required
// parameters, in the order of the schema's "required" list; then the given
// parameters sorted by name, each with at most one violation: unknown, or
// else wrong type, or else outside the enum. As an error, [Violations] is
// one sentence per line in that order.
//
// # Modes
//
// A [Mode] says what the executor (package runtime/tool) does with the
// violations: [Warn], the zero value and default, logs them and runs the
// tool; [Off] skips the gate; [Enforce] does not run the tool and returns
// the violations as its error result. Modes parse from "off", "warn" and
// "enforce" ([ParseMode]); *Mode is a [flag.Value] and an
// [encoding.TextUnmarshaler].
//
// # Performance
//
// [Compile] does the work once: per-property checks, the required
// sentences and the type sentences are built then, and the declared names
// sorted. Validate on valid arguments of the types encoding/json produces
// does not allocate; only reporting violations does.
package schema
