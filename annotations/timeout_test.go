package annotations

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestTimeoutDirective(t *testing.T) {
	at := func(line int) Pos { return Pos{File: "x.go", Line: line, Col: 1} }
	tests := []struct {
		name    string
		lines   []string
		want    Directives
		wantErr []string
	}{
		{"seconds", []string{"//tool:name Fetch", "//tool:timeout 30s"},
			Directives{Pos: at(1), Name: "Fetch", Timeout: 30 * time.Second, TimeoutPos: at(2)}, nil},
		{"compound", []string{"//tool:timeout 1m30s"},
			Directives{Pos: at(1), Timeout: 90 * time.Second, TimeoutPos: at(1)}, nil},
		{"missing", []string{"//tool:timeout"}, Directives{Pos: at(1)},
			[]string{"x.go:1:1: //tool:timeout needs a duration, e.g. //tool:timeout 30s"}},
		{"no unit", []string{"//tool:timeout 30"}, Directives{Pos: at(1)},
			[]string{`x.go:1:1: //tool:timeout "30": want a Go duration such as 30s, 2m or 1m30s`}},
		{"zero", []string{"//tool:timeout 0s"}, Directives{Pos: at(1)},
			[]string{"x.go:1:1: //tool:timeout 0s: the timeout must be positive; leave the directive out for no bound of the tool's own"}},
		{"negative", []string{"//tool:timeout -5s"}, Directives{Pos: at(1)},
			[]string{"x.go:1:1: //tool:timeout -5s: the timeout must be positive; leave the directive out for no bound of the tool's own"}},
		{"too fine", []string{"//tool:timeout 10us"}, Directives{Pos: at(1)},
			[]string{"x.go:1:1: //tool:timeout 10us: the timeout must be at least 1ms"}},
		{"twice", []string{"//tool:timeout 1s", "//tool:timeout 2s"}, Directives{Pos: at(1), Timeout: time.Second, TimeoutPos: at(1)},
			[]string{"x.go:2:1: //tool:timeout given more than once; keep one"}},
		{"misspelt", []string{"//tool:timout 1s"}, Directives{Pos: at(1)},
			[]string{"x.go:1:1: unknown directive //tool:timout; did you mean //tool:timeout?"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, errs := ParseDirectives(lines(tt.lines...))
			if diff := cmp.Diff(tt.want, d); diff != "" {
				t.Errorf("directives (-want +got):\n%s", diff)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.wantErr, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
			if len(tt.wantErr) == 0 && !d.IsTool() {
				t.Error("IsTool = false")
			}
		})
	}
}
