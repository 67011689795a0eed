package gentest

import (
	"slices"
	"testing"

	"github.com/toolgen/toolgen/examples/quickstart/echo"
	"github.com/toolgen/toolgen/runtime/tool"
)

// FuzzBindEcho feeds arbitrary argument bytes to the Echo binder: it must
// never panic, and what it accepts must keep the tag's promises (times in
// [1, 100], defaulting to 1; sep one of the enum values or empty).
func FuzzBindEcho(f *testing.F) {
	for _, s := range []string{
		`{"message":"hi"}`, `{"message":"hi","times":3,"sep":"newline"}`, `{"message":"hi","times":0}`,
		`{"message":"hi","times":101}`, `{"message":"hi","times":"10"}`, `{"message":"hi","times":2.5}`,
		`{"message":1}`, `{"message":"hi","sep":"tab"}`, `{"mesage":"hi"}`, `{}`, `{"message":"hi","times":1e300}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := tool.DecodeInput(data)
		if err != nil {
			return
		}
		got, err := echo.BindEchoInput(in)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("BindEchoInput(%s): empty error", data)
			}
			return
		}
		if got.Times < 1 || got.Times > 100 {
			t.Fatalf("BindEchoInput(%s): times %d outside [1, 100]", data, got.Times)
		}
		if got.Sep != "" && !slices.Contains([]string{"space", "newline", "none"}, got.Sep) {
			t.Fatalf("BindEchoInput(%s): sep %q outside the enum", data, got.Sep)
		}
		if _, ok := in.Get("message"); !ok {
			t.Fatalf("BindEchoInput(%s) accepted a call without the required message", data)
		}
	})
}
