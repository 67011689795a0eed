package tool

import (
	"testing"
)

type level string

// TestParamKinds: Param reads every Go kind it allows, named types too,
// with T's range, and words what it refuses as the gate does.
func TestParamKinds(t *testing.T) {
	in := NewInput(map[string]any{"s": "x", "n": 300, "neg": -1, "b": true, "f": 1e300, "word": "true", "num": 1.0})
	got := func(v any, err error) string {
		if err != nil {
			return err.Error()
		}
		return ""
	}
	tests := []struct {
		name string
		err  string
	}{
		{"named string", got(Param[level](in, "s"))},
		{"a number is not a string", got(Param[string](in, "num"))},
		{`"true" is not a boolean`, got(Param[bool](in, "word"))},
		{"int8 range", got(Param[int8](in, "n"))},
		{"uint refuses a negative", got(Param[uint](in, "neg"))},
		{"float32 range", got(Param[float32](in, "f"))},
		{"missing", got(Param[uint16](in, "zz"))},
		{"missing number", got(Param[float32](in, "zz"))},
	}
	want := map[string]string{
		"named string":             "",
		"a number is not a string": "Parameter 'num' must be a string. The tool was not executed.",
		`"true" is not a boolean`:  "Parameter 'word' must be a boolean. The tool was not executed.",
		"int8 range":               "Parameter 'n' is invalid: the number is out of range. The tool was not executed.",
		"uint refuses a negative":  "Parameter 'neg' is invalid: the number is out of range. The tool was not executed.",
		"float32 range":            "Parameter 'f' is invalid: the number is out of range. The tool was not executed.",
		"missing":                  "Parameter 'zz' is required (integer). The tool was not executed.",
		"missing number":           "Parameter 'zz' is required (number). The tool was not executed.",
	}
	for _, tt := range tests {
		if tt.err != want[tt.name] {
			t.Errorf("%s: error %q, want %q", tt.name, tt.err, want[tt.name])
		}
	}
	if v, _ := Param[level](in, "s"); v != "x" {
		t.Errorf("Param[level] = %q", v)
	}
	if v, err := ParamOr[int16](in, "zz", 7); v != 7 || err != nil {
		t.Errorf("ParamOr default = %v, %v", v, err)
	}
	if v, ok, err := OptParam[uint64](in, "n"); v != 300 || !ok || err != nil {
		t.Errorf("OptParam[uint64] = %v, %v, %v", v, ok, err)
	}
}
