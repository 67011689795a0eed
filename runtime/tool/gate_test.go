package tool

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/schema"
)

// TestChecksInputSkipsTheGate shows the one rule that decides whether the
// schema gate runs: never under Off, never for a tool whose Definition sets
// ChecksInput, always otherwise; pre-hooks and the way the Input was made
// change nothing. Under Enforce a tool that checks its own input gets an
// Input that reads no numeric string as a number, in its document and in
// its accessors.
func TestChecksInputSkipsTheGate(t *testing.T) {
	sch := map[string]any{
		"type":                 "object",
		"properties":           map[string]any{"n": map[string]any{"type": "integer"}},
		"required":             []any{"n"},
		"additionalProperties": false,
	}
	// The tool reports what it read: through the accessor and the document.
	read := func(_ context.Context, in Input, _ Context) Result {
		n, err := Param[int](in, "n")
		if err != nil {
			return FailureFrom(err)
		}
		doc, ok := in.Document()
		if !ok {
			return Failure("no document")
		}
		var fromDoc int64
		for m := doc.Members(); m.Next(); {
			if string(m.Key()) == "n" {
				var mm jsonscan.Mismatch
				if fromDoc, mm = m.Value().Int64(64); mm != jsonscan.Match {
					return Failure("document: " + schema.WrongType("n", "integer").Error())
				}
			}
		}
		return Success(strings.Repeat("+", n) + "|" + strings.Repeat("+", int(fromDoc)))
	}
	checks := New(Definition{Name: "Checks", InputSchema: sch, ChecksInput: true}, read)
	gated := New(Definition{Name: "Gated", InputSchema: sch}, read)
	const (
		gateWord   = "Parameter 'n' must be an integer. The tool was not executed."
		gateAbsent = "Parameter 'n' is required (integer). The tool was not executed."
	)
	tests := []struct {
		name, tool string
		mode       schema.Mode
		args       string
		want       string
	}{
		{"off coerces", "Gated", schema.Off, `{"n":"2"}`, "++|++"},
		{"warn runs a gated tool anyway", "Gated", schema.Warn, `{"n":"2"}`, "++|++"},
		{"warn: the tool coerces as before", "Checks", schema.Warn, `{"n":"2"}`, "++|++"},
		{"enforce: the gate refuses", "Gated", schema.Enforce, `{"n":"2"}`, gateWord},
		{"enforce: the tool refuses in the gate's words", "Checks", schema.Enforce, `{"n":"2"}`, gateWord},
		{"enforce: a number passes", "Checks", schema.Enforce, `{"n":2}`, "++|++"},
		{"enforce: the gate refuses absent", "Gated", schema.Enforce, `{}`, gateAbsent},
		{"enforce: the tool's own sentence for absent", "Checks", schema.Enforce, `{}`, gateAbsent},
		{"enforce: unknown names are the tool's to refuse", "Checks", schema.Enforce, `{"n":1,"x":1}`, "+|+"},
		{"enforce: the gate refuses unknown names", "Gated", schema.Enforce, `{"n":1,"x":1}`,
			"Unknown parameter 'x'. The tool was not executed."},
	}
	for _, tt := range tests {
		for _, how := range []string{"DecodeInput", "NewInput"} {
			for _, hooked := range []bool{false, true} {
				var seen []string
				opts := []Option{WithSchemaMode(tt.mode)}
				if hooked {
					opts = append(opts, WithPreHook(func(_ context.Context, c Call, _ Context) error {
						seen = append(seen, string(c.Input.Raw()))
						return nil
					}))
				}
				e, _ := newTestExecutor(t, []Tool{checks, gated}, opts...)
				in := input(t, tt.args)
				if how == "NewInput" {
					var m map[string]any
					if err := json.Unmarshal([]byte(tt.args), &m); err != nil {
						t.Fatal(err)
					}
					in = NewInput(m)
				}
				res := e.Execute(context.Background(), Call{Name: tt.tool, Input: in}, Context{})
				if diff := cmp.Diff(tt.want, res.Content); diff != "" {
					t.Errorf("%s via %s (pre-hook %v) (-want +got):\n%s", tt.name, how, hooked, diff)
				}
				gateRefused := tt.tool == "Gated" && res.IsError
				if hooked && (len(seen) == 1) == gateRefused {
					t.Errorf("%s via %s: the pre-hook ran %d times; want once unless the gate refused", tt.name, how, len(seen))
				}
			}
		}
	}
}

// TestStrictAccessors: the Input the executor hands a tool that checks its
// own input under Enforce reads no numeric string as a number in any
// numeric accessor; strings are still strings.
func TestStrictAccessors(t *testing.T) {
	in := input(t, `{"i":"10","f":"1.5","s":"10","n":10}`).strictly()
	if _, err := Param[int](in, "i"); err == nil || err.Error() != "Parameter 'i' must be an integer. The tool was not executed." {
		t.Errorf("Int: %v", err)
	}
	if _, err := Param[float64](in, "f"); err == nil || err.Error() != "Parameter 'f' must be a number. The tool was not executed." {
		t.Errorf("Float64: %v", err)
	}
	if s, err := Param[string](in, "s"); err != nil || s != "10" {
		t.Errorf("String = %q, %v", s, err)
	}
	if n, err := Param[int](in, "n"); err != nil || n != 10 {
		t.Errorf("Int(n) = %d, %v", n, err)
	}
}
