// Package complete is the seam between package schema and the complete
// JSON Schema validator that package runtime/schema/full registers when it
// is imported: the registration, and the validator's errors in a form of
// their own, so that package schema words them without linking the
// validator.
package complete

// Compiler compiles a schema document (JSON values as encoding/json
// decodes them with UseNumber: numbers are json.Number) for complete
// validation. nullable lists top-level property names; the Schema tells,
// for each, whether that property's schema accepts null. The error says
// why the schema does not compile, worded for package schema's callers
// ("the schema is not a valid JSON schema: at /x: ...").
type Compiler func(doc any, nullable []string) (Schema, error)

// Schema is a schema compiled for complete validation. It is safe for
// concurrent use.
type Schema interface {
	// Validate checks inst (JSON values) and returns the root of its
	// error tree, nil when inst is valid.
	Validate(inst any) *Error
	// Nullable reports whether the named top-level property's schema
	// accepts null; ok is false for a name Compile was not asked about or
	// could not judge.
	Nullable(name string) (accepts, ok bool)
}

var registered Compiler

// Register makes c the complete validator. Package full calls it from its
// init; a second registration replaces the first.
func Register(c Compiler) { registered = c }

// Registered returns the complete validator, nil when no package
// registered one.
func Registered() Compiler { return registered }

// Kind is what an Error says is wrong.
type Kind uint8

// The kinds of error a complete validation reports. Group stands for the
// nodes that only carry their causes (a schema, a reference, allOf);
// Other for every kind package schema words with Message alone.
const (
	Other Kind = iota
	Group
	Required
	DependentRequired
	AdditionalProperties
	FalseSchema
	AnyOf
	OneOf
	Type
	Enum
	Const
	Minimum
	Maximum
	ExclusiveMinimum
	ExclusiveMaximum
	MultipleOf
	MinLength
	MaxLength
	MinItems
	MaxItems
	Pattern
	Format
	PropertyNames
	InvalidValue
	Not
	Contains
	MinContains
	MaxContains
	UniqueItems
	MinProperties
	MaxProperties
	AdditionalItems
)

// Error is one node of a complete validation's error tree.
type Error struct {
	Kind Kind
	// Location is the path of the value in the instance, one token a
	// level (a member's name, an item's index).
	Location []string
	// Keyword is the path of the failing keyword in the document
	// Compile was given, one token a level (properties, x, anyOf, 0);
	// InDoc is false when it lies elsewhere (a metaschema).
	Keyword []string
	InDoc   bool
	Causes  []*Error

	// Names: Required's and DependentRequired's missing members,
	// AdditionalProperties' unexpected ones, Type's wanted types.
	Names []string
	// Name: DependentRequired's given member, PropertyNames' refused
	// name, Pattern's and Format's wanted text.
	Name string
	// Want and Got: Enum's allowed values ([]any) and Const's value,
	// each against the value given.
	Want, Got any
	// Bound: the numeric bound of Minimum to MultipleOf, written
	// exactly: an integer in full, another number as encoding/json
	// writes it.
	Bound string
	// N: the count of MinLength to MaxItems, MinContains, MaxContains,
	// MinProperties, MaxProperties and AdditionalItems; Indexes: OneOf's
	// matching subschemas, UniqueItems' equal items.
	N       int
	Indexes []int
	// Message is the validator's own wording, for Other.
	Message string
}
