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
// Every schema is held to the whole of JSON Schema draft 2020-12 (and to
// the older drafts a schema names in "$schema"), in two passes.
//
// The fast pass checks the parameters of the top-level object, without
// allocating for a valid call:
//
//   - a required parameter is missing; a null value counts as missing,
//     unless the parameter's schema accepts null (see below);
//   - a value has the wrong JSON type;
//   - a value is not one of the property's "enum" values, or not its
//     "const";
//   - a number is outside "minimum", "maximum", "exclusiveMinimum" or
//     "exclusiveMaximum"; a string breaks "minLength", "maxLength" (in
//     characters) or "pattern"; an array breaks "minItems" or "maxItems";
//   - a parameter is not declared, and "additionalProperties" is exactly
//     false (names matching "patternProperties" are declared too).
//
// A schema that uses nothing else (besides annotations such as
// "description", "default", "format" and unknown keywords) is decided by
// the fast pass alone. Any other schema — "$ref", "allOf", "anyOf",
// "oneOf", "not", "if"/"then"/"else", nested "properties" and "items",
// "patternProperties", "dependentRequired", "unevaluatedProperties", a
// false schema, older drafts, and everything else the standard defines —
// also goes through complete validation by
// github.com/santhosh-tekuri/jsonschema/v6, compiled once with the
// Validator. Its errors are worded in the gate's sentences, with the path
// of the value (edits[2].old_string) and, for enum and const, the value;
// all of them at once, after the fast pass's.
//
// # Linking the complete validation
//
// The complete validation is linked by importing package
// runtime/schema/full, the way a database/sql driver is:
//
//	import _ "github.com/toolgen/toolgen/runtime/schema/full"
//
// A program that does not import it (one that runs generated tools, or
// hand-written tools with flat schemas) links neither the validator nor
// golang.org/x/text, and pays none of their package initialisation. In
// such a program a schema the fast pass covers behaves exactly as it does
// with the validator; one it does not cover compiles to a Validator that
// checks the fast pass's part, and [Validator.Incomplete] says so, naming
// the first keyword the fast pass does not cover and the package to
// import ([ErrIncomplete]). The executor (runtime/tool) refuses such a
// tool's calls under [Enforce] and logs it under [Warn]. [Check] reads a
// schema without compiling the complete validation, for a registry to
// name a broken or incomplete schema cheaply.
//
// Either way the fast pass holds every keyword to the shape the
// metaschemas of draft 2020-12 and 2019-09 give it (a "type" that names
// no type, a "required" that lists a name twice, a "pattern" that is not
// a regular expression, a "description" that is not a string), so that a
// typo is reported as one, not as a reason to link a validator.
//
// "format" is an annotation: the gate does not assert it, in 2020-12 and
// 2019-09 because the standard metaschemas do not ask for the
// format-assertion vocabulary, and in the older drafts by choice, for the
// same behaviour everywhere (except "regex", which the validator asserts
// there). Content keywords ("contentMediaType", ...) are annotations too.
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
// Values whose JSON form the fast pass cannot tell without running their
// code (json.Marshaler, encoding.TextMarshaler, structs, funcs) are let
// through by it; the complete validation reads them as encoding/json
// writes them, and reports a value that has no JSON form.
//
// "enum" values compare as JSON values: 1 equals 1.0, and enums of numbers,
// booleans, null, arrays and objects work as well as enums of strings.
//
// # Null
//
// A top-level null means "absent" only where the schema does not accept
// null: {"x": {"type": ["string", "null"]}} with "required": ["x"] accepts
// {"x": null} (the style OpenAI's strict mode makes MCP servers publish),
// while {"x": {"type": "string"}} reads {"x": null} as no x at all. For a
// declared property the answer is the property's schema validated against
// null, once at Compile; for other names (matched by "patternProperties",
// "additionalProperties", or a subschema) the complete validation judges
// the null, and a null it refuses is taken out.
//
// # Schemas that do not compile
//
// [Compile] fails for a schema that is not a valid JSON schema (checked
// against its metaschema: a "type" that names no type, a "required" that
// lists a name twice, a "pattern" that is not a regular expression, ...;
// in full where the complete validation is linked and needed, in the
// shape of each keyword always), for a reference the schema cannot resolve by itself (the gate loads no
// document from the network or the disk: what "$ref" names must be in the
// schema, under "$defs"), and for a schema with no JSON form. The error
// names the place in the schema. A null keyword at the top ("properties":
// nil in a Go literal) counts as absent. The executor refuses the calls of
// a tool whose schema does not compile under [Enforce], and logs them
// under [Warn].

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
// array, an object. A type list is worded without "null" (where null is
// accepted it is never the fix): ["string", "null"] gives
// "must be a string" and "is required (string)", ["string", "integer"]
// gives "must be a string or an integer" and "is required (string or
// integer)". A required parameter whose type the gate does not know is
// "Parameter 'x' is required. The tool was not executed.".
//
// The complete validation adds sentences for what the fast pass does not
// check ([NotConst], [NotMultipleOf], [RequiredWith], [NotAllowed], [Invalid]
// with a short phrase for "not", "anyOf", "oneOf", "contains", "uniqueItems"
// and the like, and [Arguments] for the arguments as a whole).
//
// Messages carry parameter names and types; only the enum and const
// sentences echo the value: a string as it is, anything else as compact JSON, cut
// to [EchoLimit] (100) characters followed by "...". The name in the
// unknown-parameter sentence is cut the same way. Control and format
// characters are written as escapes (\n, \t, \u0001, \u202e) and a single
// quote as \', so each message is one line and a name cannot close its own
// quotation. [Echo] does all of this; it is the one helper every runtime
// package (the executor, the allow-list, the MCP server, the providers)
// echoes a model's names with.
// The allowed values come from the schema and are written in full (each cut
// at 4096 bytes, a guard against Go values that contain themselves). The
// "Did you mean" suggestion comes from [Suggest].
//
// # Order
//
// [Validator.Validate] reports, in this order: the missing required
// parameters, in the order of the schema's "required" list; then the given
// parameters sorted by name: unknown, or else wrong type, or else every
// enum, const, range, length and pattern rule broken; then what only the
// complete validation finds, missing members first, then by path, without
// repeating a sentence. As an error, [Violations] is one problem per line
// in that order, and "The tool was not executed." ends the last line once
// rather than every line:
//
//	Parameter 'file_path' is required (string).
//	Unknown parameter 'file_paht'. Did you mean 'file_path'? The tool was not executed.
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
// sentences and the type sentences are built then, the declared names
// sorted, and the complete validator compiled where the schema needs it. Validate on valid arguments
// of the types encoding/json produces does not allocate when the fast pass
// decides alone; the complete validation allocates as it walks.
package schema
