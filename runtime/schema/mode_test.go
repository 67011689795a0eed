package schema

import (
	"encoding/json"
	"flag"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseMode(t *testing.T) {
	tests := []struct {
		in      string
		want    Mode
		wantErr string
	}{
		{"off", Off, ""},
		{"warn", Warn, ""},
		{"enforce", Enforce, ""},
		{"ENFORCE", Enforce, ""},
		{" Off ", Off, ""},
		{"", Warn, `schema: unknown mode "": want off, warn or enforce`},
		{"strict", Warn, `schema: unknown mode "strict": want off, warn or enforce`},
	}
	for _, tt := range tests {
		got, err := ParseMode(tt.in)
		errText := ""
		if err != nil {
			errText = err.Error()
		}
		if got != tt.want || errText != tt.wantErr {
			t.Errorf("ParseMode(%q) = %v, %q; want %v, %q", tt.in, got, errText, tt.want, tt.wantErr)
		}
	}
}

func TestModeZeroIsWarn(t *testing.T) {
	var m Mode
	if m != Warn || m.String() != "warn" {
		t.Errorf("zero Mode = %v, want warn", m)
	}
}

func TestModeString(t *testing.T) {
	got := []string{Warn.String(), Off.String(), Enforce.String(), Mode(9).String()}
	want := []string{"warn", "off", "enforce", "Mode(9)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
}

func TestModeFlag(t *testing.T) {
	var m Mode
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(discard{})
	fs.Var(&m, "schema-mode", "schema gate: off, warn or enforce")
	if err := fs.Parse([]string{"-schema-mode", "enforce"}); err != nil {
		t.Fatal(err)
	}
	if m != Enforce {
		t.Errorf("after -schema-mode enforce: %v", m)
	}
	if err := fs.Parse([]string{"-schema-mode", "loud"}); err == nil {
		t.Errorf("-schema-mode loud: no error")
	}
	if m != Enforce {
		t.Errorf("a failed Set changed the mode to %v", m)
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestModeText(t *testing.T) {
	type config struct {
		Mode Mode `json:"mode"`
	}
	b, err := json.Marshal(config{Enforce})
	if err != nil || string(b) != `{"mode":"enforce"}` {
		t.Fatalf("Marshal = %s, %v", b, err)
	}
	var c config
	if err := json.Unmarshal([]byte(`{"mode":"Off"}`), &c); err != nil || c.Mode != Off {
		t.Errorf("Unmarshal = %v, %v", c.Mode, err)
	}
	if err := json.Unmarshal([]byte(`{"mode":"nope"}`), &c); err == nil {
		t.Errorf("Unmarshal of an unknown mode: no error")
	}
	if _, err := Mode(7).MarshalText(); err == nil || err.Error() != "schema: invalid mode 7" {
		t.Errorf("MarshalText(Mode(7)) error = %v", err)
	}
	for _, m := range []Mode{Warn, Off, Enforce} {
		text, err := m.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Mode
		if err := back.UnmarshalText(text); err != nil || back != m {
			t.Errorf("round trip of %v: %v, %v", m, back, err)
		}
	}
}
