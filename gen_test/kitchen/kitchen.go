// Package kitchen is a fixture that uses every supported type, tag option
// and directive, so that gen_test can bind real inputs through its
// generated code.
package kitchen

import (
	"encoding/json"
	"time"

	"github.com/toolgen/toolgen/gen_test/kitchen/units"
)

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// Level is a log level, declared once as constants.
//
//tool:enum
type Level string

// The levels.
const (
	Debug Level = "debug"
	Info  Level = "info"
	Warn  Level = "warn"
)

// Count is a named integer type.
type Count int32

// Tags is a named slice type.
type Tags []string

// Alias is an alias of a struct from another package.
type Alias = units.Point

// Base holds fields promoted into the input, as encoding/json promotes them.
type Base struct {
	// Working directory.
	Dir string `json:"dir,omitempty" tool:"minlen=1"`
	// Whether to be verbose.
	Verbose bool `json:"verbose,omitempty"`
}

// Edit is one replacement.
type Edit struct {
	// Text to replace.
	Old string `json:"old_string" tool:"required,minlen=1"`
	// Replacement text.
	New string `json:"new_string" tool:"required"`
	// Replace every occurrence.
	All *bool `json:"replace_all,omitempty"`
}

// KitchenInput is the input of the Kitchen tool.
//
// It shows every field type toolgen binds.
//
//tool:name Kitchen
//tool:description Shows every field type toolgen binds.
//tool:concurrency sequential
//tool:interrupt non-interruptible
//tool:side-effect destructive
//tool:loading deferred
//tool:subject path file_path
type KitchenInput struct {
	Base

	// File to work on.
	FilePath string `json:"file_path" tool:"required,pattern='^/[^,]*$'"`
	// Free text, with a comma in its default.
	Note string `json:"note,omitempty" tool:"default='a,b',maxlen=20"`
	// Log level.
	Level Level `json:"level,omitempty" tool:"default=info"`
	// Case insensitive.
	I bool `json:"-i,omitempty"`
	// Lines after a match.
	A int `json:"-A,omitempty" tool:"min=0,max=10"`
	// Clamped count.
	Limit int     `json:"limit,omitempty" tool:"default=5,min=1,max=20,clamp"`
	I8    int8    `json:"i8,omitempty"`
	I16   int16   `json:"i16,omitempty"`
	I32   Count   `json:"i32,omitempty"`
	I64   int64   `json:"i64,omitempty" tool:"min=-5"`
	U     uint    `json:"u,omitempty"`
	U8    uint8   `json:"u8,omitempty" tool:"max=200"`
	U16   uint16  `json:"u16,omitempty"`
	U32   uint32  `json:"u32,omitempty"`
	U64   uint64  `json:"u64,omitempty"`
	F32   float32 `json:"f32,omitempty"`
	// A ratio.
	F64 float64 `json:"f64,omitempty" tool:"min=0,max=1,default=0.5"`
	// Optional number: nil when absent.
	Opt *int `json:"opt,omitempty"`
	// Optional text.
	OptS *string `json:"opt_s,omitempty"`
	// Edits, at least one.
	Edits []Edit `json:"edits,omitempty" tool:"minitems=1,maxitems=3"`
	// Tags.
	Tags Tags `json:"tags,omitempty" tool:"enum=x|y|z"`
	// A fixed pair.
	Pair [2]int `json:"pair,omitempty"`
	// Environment.
	Env map[string]string `json:"env,omitempty" tool:"pattern='^[a-z]+$'"`
	// Counts by name.
	Counts map[string]int `json:"counts,omitempty" tool:"min=0"`
	// Where.
	At units.Point `json:"at,omitempty"`
	// Where else, through an alias.
	Other *Alias `json:"other,omitempty"`
	// Units.
	Units []units.Unit `json:"units,omitempty"`
	// Levels by name.
	Levels map[string]Level `json:"levels,omitempty"`
	// Nested options.
	Options struct {
		// Depth.
		Depth int `json:"depth,omitempty" tool:"default=2"`
	} `json:"options,omitempty"`
	// Raw JSON.
	Raw json.RawMessage `json:"raw,omitempty"`
	// Anything.
	Any any `json:"any,omitempty"`
	// When.
	When time.Time `json:"when,omitempty"`
	// How long.
	Timeout time.Duration `json:"timeout,omitempty" tool:"default=1m30s"`
	// A day.
	Day string `json:"day,omitempty" tool:"format=date"`
	// A time of day.
	Clock string `json:"clock,omitempty" tool:"format=time"`
	// A timestamp as text.
	Stamp string `json:"stamp,omitempty" tool:"format=date-time"`
	// A duration as text.
	Span string `json:"span,omitempty" tool:"format=duration"`
	// An address.
	Email string `json:"email,omitempty" tool:"format=email"`
	// A link.
	Link string `json:"link,omitempty" tool:"format=uri"`
	// An id.
	ID string `json:"id,omitempty" tool:"format=uuid"`
	// Not bound.
	Skipped  string `json:"-"`
	internal int
}

// Empty has no fields at all.
//
//tool:name Empty
//tool:description Does nothing.
type Empty struct{}
