package schema

import (
	"fmt"
	"strconv"
	"strings"
)

// Mode says what the executor does with a call whose arguments break the
// schema. The gate itself only reports; the executor applies the mode.
type Mode int

const (
	// Warn logs the violations and runs the tool anyway. It is the zero
	// value and the default: a schema can be wrong, and a tool that reads
	// its input carefully still says what is missing.
	Warn Mode = iota
	// Off skips the gate.
	Off
	// Enforce does not run the tool; the violations are the error result
	// the model sees.
	Enforce
)

// ParseMode reads a mode by its name: "off", "warn" or "enforce", in any
// case, with surrounding spaces ignored.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "warn":
		return Warn, nil
	case "off":
		return Off, nil
	case "enforce":
		return Enforce, nil
	}
	return Warn, fmt.Errorf("schema: unknown mode %q: want off, warn or enforce", s)
}

// String returns the mode's name ("warn", "off", "enforce"), or "Mode(N)"
// for a value that is not a mode.
func (m Mode) String() string {
	switch m {
	case Warn:
		return "warn"
	case Off:
		return "off"
	case Enforce:
		return "enforce"
	}
	return "Mode(" + strconv.Itoa(int(m)) + ")"
}

// Set sets the mode from its name, as [ParseMode] reads it; with String it
// makes *Mode a [flag.Value]:
//
//	mode := schema.Warn
//	flag.Var(&mode, "schema-mode", "schema gate: off, warn or enforce")
func (m *Mode) Set(s string) error {
	p, err := ParseMode(s)
	if err != nil {
		return err
	}
	*m = p
	return nil
}

// MarshalText returns the mode's name; a value that is not a mode is an
// error.
func (m Mode) MarshalText() ([]byte, error) {
	switch m {
	case Warn, Off, Enforce:
		return []byte(m.String()), nil
	}
	return nil, fmt.Errorf("schema: invalid mode %d", int(m))
}

// UnmarshalText reads a mode's name, as [ParseMode] does.
func (m *Mode) UnmarshalText(text []byte) error { return m.Set(string(text)) }
