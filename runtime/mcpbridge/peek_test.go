package mcpbridge

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestHasInitialize(t *testing.T) {
	tests := []struct {
		name string
		body string
		want bool
	}{
		{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, true},
		{"leading space", " \n\t{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\"}", true},
		{"discover", `{"jsonrpc":"2.0","id":1,"method":"server/discover"}`, false},
		{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, false},
		{"batch with initialize", `[{"jsonrpc":"2.0","method":"ping","id":1},{"jsonrpc":"2.0","id":2,"method":"initialize"}]`, true},
		{"batch without", `[{"jsonrpc":"2.0","method":"ping","id":1},7,"x"]`, false},
		{"field name in another case", `{"Method":"initialize"}`, true},
		{"method not a string", `{"method":7}`, false},
		{"not JSON", `initialize`, false},
		{"empty", ``, false},
		{"null", `null`, false},
		{"truncated", `{"method":"initialize"`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := hasInitialize([]byte(tc.body)); got != tc.want {
				t.Errorf("hasInitialize(%q) = %v, want %v", tc.body, got, tc.want)
			}
		})
	}
}

// TestPeekOpensSession: the body is read again whole after the peek, and a
// body over the limit is not looked at.
func TestPeekOpensSession(t *testing.T) {
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize"}`
	tests := []struct {
		name  string
		body  string
		limit int64
		want  bool
	}{
		{"under the limit", init, 1 << 10, true},
		{"at the limit", init, int64(len(init)), true},
		{"over the limit", init, int64(len(init)) - 1, false},
		{"no limit", init, -1, true},
		{"not initialize", `{"method":"ping"}`, 1 << 10, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := http.NewRequest(http.MethodPost, "/", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			if got := peekOpensSession(r, tc.limit); got != tc.want {
				t.Errorf("peekOpensSession = %v, want %v", got, tc.want)
			}
			rest, err := io.ReadAll(r.Body)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.body, string(rest)); diff != "" {
				t.Errorf("the body after the peek (-want +got):\n%s", diff)
			}
			if err := r.Body.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
}

// FuzzHasInitialize checks hasInitialize against a plain decoding of the
// body: it never panics, and it says yes whenever the body decodes as an
// initialize request or a batch holding one.
func FuzzHasInitialize(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize"}`,
		`[{"method":"ping"},{"method":"initialize"}]`,
		`{"method":"server/discover"}`,
		`[1,2,"x",null]`,
		`{"method":"init\u0069alize"}`,
		``, `[`, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		got := hasInitialize(body)
		var want bool
		var one map[string]any
		var batch []map[string]any
		trimmed := bytes.TrimLeft(body, " \t\r\n")
		if json.Unmarshal(trimmed, &one) == nil {
			want = one["method"] == methodInitialize
		} else if json.Unmarshal(trimmed, &batch) == nil {
			for _, m := range batch {
				if m["method"] == methodInitialize {
					want = true
				}
			}
		}
		if want && !got {
			t.Errorf("hasInitialize(%q) = false, but it decodes as an initialize request", body)
		}
	})
}
