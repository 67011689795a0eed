package gentest

import (
	"encoding/json"
	"testing"

	"github.com/go-viper/mapstructure/v2"

	"github.com/toolgen/toolgen/gen_test/grep"
	"github.com/toolgen/toolgen/runtime/tool"
)

var grepArgs = []byte(`{"pattern":"func \\w+","path":"/src","glob":"*.go","type":"go","output_mode":"content",
	"-i":true,"-n":true,"multiline":false,"-A":2,"-B":1,"-C":0,"head_limit":50,"offset":10}`)

func grepInput(b *testing.B) tool.Input {
	in, err := tool.DecodeInput(grepArgs)
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// BenchmarkGrepBind compares the generated binder with the same bind done
// by an encoding/json round trip and by mapstructure, from the same
// decoded input. Run: go test ./gen_test -bench Grep -benchmem
func BenchmarkGrepBind(b *testing.B) {
	in := grepInput(b)
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := grep.BindGrepInput(in); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json-roundtrip", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			data, err := json.Marshal(in.Map())
			if err != nil {
				b.Fatal(err)
			}
			var out grep.GrepInput
			if err := json.Unmarshal(data, &out); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("mapstructure", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var out grep.GrepInput
			if err := mapstructure.Decode(in.Map(), &out); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestGrepBindAgrees(t *testing.T) {
	in, _ := tool.DecodeInput(grepArgs)
	got, err := grep.BindGrepInput(in)
	if err != nil {
		t.Fatal(err)
	}
	var viaJSON grep.GrepInput
	if err := json.Unmarshal(grepArgs, &viaJSON); err != nil {
		t.Fatal(err)
	}
	if got != viaJSON {
		t.Errorf("generated %+v, encoding/json %+v", got, viaJSON)
	}
}

// FuzzBindKitchen feeds arbitrary JSON objects to the kitchen binder: it
// must never panic, and must return either a value or violations.
func FuzzBindKitchen(f *testing.F) {
	f.Add([]byte(`{"file_path":"/a","edits":[{"old_string":"a","new_string":"b"}],"limit":1e300}`))
	f.Add([]byte(`{"env":{"a":null},"tags":[null],"pair":[1,2,3],"when":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := tool.DecodeInput(data)
		if err != nil {
			return
		}
		bindKitchen(in)
	})
}

// FuzzBindGrep does the same for the Grep binder.
func FuzzBindGrep(f *testing.F) {
	f.Add(grepArgs)
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := tool.DecodeInput(data)
		if err != nil {
			return
		}
		_, _ = grep.BindGrepInput(in)
	})
}
