// Package full links complete JSON Schema validation into the schema gate,
// the way database/sql drivers and image decoders are linked: by import.
//
//	import _ "github.com/toolgen/toolgen/runtime/schema/full"
//
// Package schema's fast pass decides by itself every schema that asserts
// only what it checks (a top-level object of typed, enumerated, bounded
// parameters, the shape toolgen generates). A schema that uses anything
// else ("$ref", "anyOf", nested "properties", older drafts, ...) needs
// complete validation by github.com/santhosh-tekuri/jsonschema/v6, which
// this package registers. Without it such a schema is checked by the fast
// pass alone, and under schema.Enforce the executor refuses its calls with
// a sentence naming this package (see schema.Validator.Incomplete). The
// validator costs a program about 1.5 MB of binary and a package
// initialisation of some 20,000 allocations, which is why a program that
// runs only generated tools does not link it.
//
// Import it where schemas come from outside: runtime/mcpbridge does (a
// remote MCP server's schemas are foreign), and so do cmd/toolmcp and
// every program that registers hand-written or remote tools with
// composite schemas. A schema is compiled for complete validation when the
// executor first calls its tool, never at registration.
//
// The package exports nothing; its errors are worded by package schema.
package full
