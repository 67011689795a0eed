package annotations

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseParam(t *testing.T) {
	at := func(col int) Pos { return Pos{File: "x.go", Line: 1, Col: col} }
	tests := []struct {
		line string
		want []Param
		errs []string
	}{
		{"//tool:param digit1 The first digit.", []Param{{Pos: at(1), OptionsPos: at(1), Name: "digit1", Description: "The first digit."}}, nil},
		{"//tool:param digit1 min=0,max=9 The first digit.", []Param{{Pos: at(1), OptionsPos: at(21), Name: "digit1", Options: "min=0,max=9", Description: "The first digit."}}, nil},
		{"//tool:param q wire=query,required The words.", []Param{{Pos: at(1), OptionsPos: at(16), Name: "q", Options: "required", Wire: "query", Description: "The words."}}, nil},
		{"//tool:param q required", []Param{{Pos: at(1), OptionsPos: at(16), Name: "q", Options: "required"}}, nil},
		// A lower-case first word without = or , is description.
		{"//tool:param q clamps values", []Param{{Pos: at(1), OptionsPos: at(1), Name: "q", Description: "clamps values"}}, nil},
		// A misspelled option is reported, not taken into the description.
		{"//tool:param q minn=3 The thing.", []Param{{Pos: at(1), OptionsPos: at(16), Name: "q", Description: "The thing."}}, []string{`x.go:1:16: //tool:param q: unknown option "minn"; did you mean "min"?`}},
		{"//tool:param q clamp,requried The thing.", []Param{{Pos: at(1), OptionsPos: at(16), Name: "q", Description: "The thing."}}, []string{`x.go:1:22: //tool:param q: unknown option "requried"; did you mean "required"?`}},
		{"//tool:param", nil, []string{"x.go:1:1: //tool:param needs the parameter's name, then its options and description, e.g. //tool:param digit1 min=0,max=9 The first digit to add."}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			d, errs := ParseDirectives([]Comment{{Pos: at(1), Text: tt.line}})
			if diff := cmp.Diff(tt.want, d.Params); diff != "" {
				t.Errorf("params (-want +got):\n%s", diff)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.errs, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
