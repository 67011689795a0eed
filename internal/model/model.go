package model

import (
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/runtime/permission"
)

// A Package is one loaded Go package that declares tools.
type Package struct {
	Path string // import path, e.g. "example.com/echo"
	Name string // package name, e.g. "echo"
	Dir  string // directory holding the package's files

	// Files are the source files that declare tools, sorted by Source.
	Files []*File

	// Taken holds the package-scope identifiers of the package (those of
	// its hand-written files), so the emitter can pick names for imports
	// and unexported helpers that cannot collide with them.
	Taken map[string]bool
}

// A File is one source file that declares tools, and the generated file
// that belongs to it.
type File struct {
	Source    string  // path of the source file
	Generated string  // path of the generated file, see [annotations.GeneratedName]
	Package   string  // package name in the file (differs for external tests)
	Tools     []*Tool // sorted by Name
}

// A Tool is one input struct marked with //tool:name.
type Tool struct {
	Pos         annotations.Pos
	Name        string   // the tool's name, from //tool:name
	Description string   // from //tool:description, or the doc comment's prose
	TypeName    string   // the input struct's Go name, e.g. "EchoInput"
	Keywords    []string // search hints from //tool:keywords, in order
	Title       string   // a short human-readable name, from //tool:title
	OpenWorld   bool     // //tool:open-world: the tool reaches the network or arbitrary programs
	Idempotent  bool     // //tool:idempotent: a second call with the same arguments has no further effect
	Unexported  bool     // //tool:unexported: the constructor and binder are unexported
	// Output is the struct type //tool:output names, whose schema is the
	// tool's output schema; nil without the directive.
	Output *Output
	// Timeout bounds each call, from //tool:timeout; 0 without it.
	Timeout time.Duration

	// Behaviours: the zero value means "not declared", so the generated
	// tool does not implement the matching interface.
	Concurrency annotations.Concurrency
	Interrupt   annotations.Interrupt
	// SideEffect is the runtime's own type (tool.SideEffect is an alias
	// of it), so the generated Definition carries the value the directive
	// names; permission.Unknown means not declared.
	SideEffect permission.SideEffect
	Loading    annotations.Loading
	Subject    *annotations.Subject

	// Fields are the bound fields in declaration order, with the fields of
	// embedded structs promoted in place, as encoding/json does.
	Fields []*Field

	// Func, for a tool declared by a function's //tool: directives,
	// describes the function: the input struct (TypeName) is then
	// generated too, and the public constructor calls the function.
	Func *Func

	// Guards are the struct types the tool binds or returns as the
	// compiler sees them, for the compile-time guard: the input struct
	// first, then each named struct type its bound fields reach (nested,
	// embedded, from other packages), in first-use order, then the
	// //tool:output struct and the types its fields reach, each once.
	Guards []Guard
}

// A Func is a function (or method) that is a tool.
type Func struct {
	Name string    // the function's name, e.g. "Add"
	Recv *TypeExpr // the method's receiver type (e.g. *Service); nil for a function
	Ctor string    // the public constructor, e.g. NewAddTool, NewServiceSearchTool
	// Params are the function's parameters, in order.
	Params []FuncParam
	// Results are the function's results: a value, an error, or both (the
	// value first).
	Results []*TypeExpr
	// Value and Err say which results there are.
	Value, Err bool
}

// FuncParamKind says what a function tool's parameter receives.
type FuncParamKind int

const (
	ParamInput   FuncParamKind = iota // a property of the input
	ParamContext                      // the call's context.Context
	ParamTool                         // the call's tool.Context
)

// A FuncParam is one parameter of a function tool.
type FuncParam struct {
	Kind  FuncParamKind
	Name  string    // the parameter's name
	Field string    // ParamInput: the generated struct's field, e.g. "Digit1"
	Type  *TypeExpr // as written
	Tag   string    // ParamInput: the field's struct tag
	Doc   string    // ParamInput: the field's doc comment (its description)
}

// An Output is a tool's declared output type: a struct type of the tool's
// package, whose values the tool returns as structured content.
type Output struct {
	TypeName string   // the struct's Go name, e.g. "WeatherReport"
	Fields   []*Field // as for an input struct
}

// A Guard is one named struct type as declared when toolgen ran.
type Guard struct {
	Type *TypeExpr // the named type, e.g. EchoInput or units.Point

	// Fields are the struct's fields. When Partial, the struct has fields
	// its package's outsiders cannot name (unexported, or of unexported
	// types), and Fields hold only the exported fields that can be named.
	Fields  []GuardField
	Partial bool
}

// A GuardField is one field of a struct as the Go compiler sees it.
type GuardField struct {
	Name     string // Go name; for an embedded field the type's name
	Embedded bool
	Type     *TypeExpr
}

// A Field is one bound field: a property of an object in the schema.
type Field struct {
	Pos         annotations.Pos
	GoPath      []string // selector path from the struct, e.g. ["Base", "Limit"]
	Wire        string   // the JSON name, from the json tag
	Description string   // the field's doc comment
	Type        *Type
	Required    bool
	// OmitEmpty says the json tag has omitempty or omitzero: encoding/json
	// leaves a nil pointer, slice or map out rather than writing null.
	OmitEmpty   bool
	Default     any // nil, or string, bool, int64, uint64, float64
	Constraints Constraints
}

// Constraints are the checks a field's tool tag declares. Constraints on a
// slice, array or map of scalars (enum, pattern, format, min, max, minlen,
// maxlen) apply to its elements; minitems and maxitems to the container.
type Constraints struct {
	Enum     []string // allowed values, in declaration order
	Min, Max *Number
	Clamp    bool // clamp to Min/Max instead of reporting a violation
	MinLen   *int
	MaxLen   *int
	MinItems *int
	MaxItems *int
	Pattern  string // a regular expression that compiles with package regexp
	Format   annotations.Format
}

// A Number is a bound written in a tag: its text (so an integer keeps every
// digit) and its value.
type Number struct {
	Text  string
	Value float64
}

// Kind is the shape of a bound type.
type Kind int

const (
	Invalid Kind = iota
	String
	Bool
	Int      // signed integer kinds, Bits 8..64 (0 means int)
	Uint     // unsigned integer kinds, Bits 8..64 (0 means uint)
	Float    // Bits 32 or 64
	Slice    // Elem
	Array    // Elem, Len
	Map      // Elem; the key is a string kind (KeyType)
	Pointer  // Elem
	Struct   // Fields
	Any      // any: accepted as is
	Raw      // encoding/json.RawMessage: the value re-encoded
	Time     // time.Time: an RFC 3339 string
	Duration // time.Duration: a Go duration string
)

var kindNames = [...]string{
	Invalid: "invalid", String: "string", Bool: "bool", Int: "int", Uint: "uint",
	Float: "float", Slice: "slice", Array: "array", Map: "map", Pointer: "pointer",
	Struct: "struct", Any: "any", Raw: "raw", Time: "time", Duration: "duration",
}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// A Type is a bound type: its shape, its Go spelling and, for structs,
// its fields.
type Type struct {
	Kind    Kind
	Go      *TypeExpr // how the type is written in Go
	Bits    int       // Int, Uint, Float: the size in bits; 0 for int and uint
	Elem    *Type     // Slice, Array, Map, Pointer
	Len     int64     // Array
	KeyType *TypeExpr // Map: the key type (a string kind)
	Fields  []*Field  // Struct
	Enum    []string  // a //tool:enum named string type: its constants' values

	// Key identifies a struct type within a tool, so the emitter binds each
	// distinct struct type with one helper.
	Key string
}

// JSONType returns the JSON-schema type name of t ("" for Any and Raw).
func (t *Type) JSONType() string {
	switch t.Kind {
	case String, Time, Duration:
		return "string"
	case Bool:
		return "boolean"
	case Int, Uint:
		return "integer"
	case Float:
		return "number"
	case Slice, Array:
		return "array"
	case Map, Struct:
		return "object"
	case Pointer:
		return t.Elem.JSONType()
	}
	return ""
}

// Scalar reports whether t (through pointers) is a string, boolean or
// number: a value constraints such as min or pattern apply to.
func (t *Type) Scalar() *Type {
	for t.Kind == Pointer {
		t = t.Elem
	}
	return t
}

// TypeExprKind is the kind of a [TypeExpr].
type TypeExprKind int

const (
	ExprNamed     TypeExprKind = iota // Path.Name[Args]; Path "" for predeclared
	ExprPointer                       // *Elem
	ExprSlice                         // []Elem
	ExprArray                         // [Len]Elem
	ExprMap                           // map[Key]Elem
	ExprStruct                        // struct{Fields}
	ExprInterface                     // any (empty interface only)
)

// A TypeExpr is a Go type as it is written, with qualified names, for the
// emitter to spell.
type TypeExpr struct {
	Kind   TypeExprKind
	Path   string // ExprNamed: import path of the package; "" for predeclared names
	Pkg    string // ExprNamed: the package's name
	Name   string // ExprNamed
	Args   []*TypeExpr
	Elem   *TypeExpr
	Key    *TypeExpr
	Len    int64
	Fields []StructField // ExprStruct
}

// A StructField is a field of an anonymous struct type expression.
type StructField struct {
	Name     string
	Embedded bool
	Type     *TypeExpr
	Tag      string
}

// BindName is the name of the tool's generated binder: "Bind" and the
// input type's name (BindEchoInput), or "bind" and it under
// //tool:unexported (bindEchoInput).
func (t *Tool) BindName() string { return t.exported("Bind") + upperFirst(t.TypeName) }

// CtorName is the name of the tool's generated constructor: "New", the
// input type's name without a trailing "Input", and "Tool" (NewEchoTool),
// or "new" and the rest under //tool:unexported (newEchoTool).
func (t *Tool) CtorName() string {
	base := t.TypeName
	if s, ok := strings.CutSuffix(base, "Input"); ok && s != "" {
		base = s
	}
	return t.exported("New") + upperFirst(base) + "Tool"
}

// exported returns prefix, or it lower-cased under //tool:unexported.
func (t *Tool) exported(prefix string) string {
	if t.Unexported {
		return strings.ToLower(prefix)
	}
	return prefix
}

// upperFirst returns s with its first letter upper-cased.
func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
