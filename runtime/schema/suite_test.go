package schema_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// suiteDir finds the official JSON Schema Test Suite's draft 2020-12 files,
// kept beside the repository (never copied into it).
func suiteDir(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("module root not found")
		}
		dir = parent
	}
	suite := filepath.Join(dir, "..", "shared", "data", "jsonschema-test-suite", "tests", "draft2020-12")
	if _, err := os.Stat(suite); err != nil {
		t.Skipf("the JSON Schema Test Suite is not at %s (../shared/data/jsonschema-test-suite from the module root): %v", suite, err)
	}
	return suite
}

type suiteGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// tally counts the verdicts of one form of the suite.
type tally struct {
	right, wrong, falseRejects, skipped int
	misses                              []string
}

func (t *tally) rate() float64 {
	if t.right+t.wrong == 0 {
		return 1
	}
	return float64(t.right) / float64(t.right+t.wrong)
}

// TestOfficialSuite runs every case of the JSON Schema Test Suite (draft
// 2020-12) through the executor under schema.Enforce, in two forms:
//
//   - input: the case's schema is the tool's input schema, for the cases
//     whose instance is an object (tool arguments always are);
//   - wrapped: the schema is the one required property "x" of the tool's
//     schema, and the instance is {"x": instance}, so that every case is
//     checked where the gate checks parameters. A wrapped schema object
//     without "$id" is given one, so that it stays its own resource and its
//     "#..." references keep pointing into it.
//
// A call the executor runs is a valid verdict, a refused one invalid.
// Cases needing remote references (refRemote.json and schemas naming the
// suite's localhost:1234 server) are skipped. The test fails below 99%
// right in either form, or at any valid instance refused.
func TestOfficialSuite(t *testing.T) {
	if testing.Short() {
		t.Skip("the whole suite: not with -short")
	}
	dir := suiteDir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no suite files in %s: %v", dir, err)
	}
	slices.Sort(files)
	forms := []string{"input", "wrapped"}
	total := map[string]*tally{"input": {}, "wrapped": {}}
	for _, file := range files {
		base := filepath.Base(file)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var groups []suiteGroup
		if err := json.Unmarshal(data, &groups); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		per := map[string]*tally{"input": {}, "wrapped": {}}
		for gi, g := range groups {
			remote := base == "refRemote.json" || strings.Contains(string(g.Schema), "localhost:1234")
			for _, form := range forms {
				pt := per[form]
				if remote {
					pt.skipped += len(g.Tests)
					continue
				}
				toolSchema, ok := suiteSchema(g.Schema, form, gi)
				if !ok {
					pt.skipped += len(g.Tests)
					continue
				}
				e := suiteExecutor(t, toolSchema)
				for _, c := range g.Tests {
					args := []byte(c.Data)
					if form == "wrapped" {
						args = []byte(`{"x":` + string(c.Data) + `}`)
					}
					in, err := tool.DecodeInput(args)
					if err != nil {
						pt.skipped++ // not an object: not tool arguments
						continue
					}
					res := e.Execute(context.Background(), tool.Call{Name: "Suite", Input: in}, tool.Context{})
					if !res.IsError == c.Valid {
						pt.right++
						continue
					}
					pt.wrong++
					verdict := "accepted an invalid instance"
					if c.Valid {
						pt.falseRejects++
						verdict = "refused a valid instance: " + res.Content
					}
					pt.misses = append(pt.misses, fmt.Sprintf("%s: %s / %s: %s", base, g.Description, c.Description, verdict))
				}
			}
		}
		for _, form := range forms {
			pt, tt := per[form], total[form]
			tt.right += pt.right
			tt.wrong += pt.wrong
			tt.falseRejects += pt.falseRejects
			tt.skipped += pt.skipped
			tt.misses = append(tt.misses, pt.misses...)
		}
		t.Logf("%-28s input %3d/%-3d (%5.1f%%)  wrapped %3d/%-3d (%5.1f%%)", base,
			per["input"].right, per["input"].right+per["input"].wrong, 100*per["input"].rate(),
			per["wrapped"].right, per["wrapped"].right+per["wrapped"].wrong, 100*per["wrapped"].rate())
	}
	for _, form := range forms {
		tt := total[form]
		t.Logf("%s: %d of %d verdicts right (%.2f%%), %d skipped, %d valid instances refused",
			form, tt.right, tt.right+tt.wrong, 100*tt.rate(), tt.skipped, tt.falseRejects)
		for _, m := range tt.misses {
			t.Logf("  %s: %s", form, m)
		}
		if tt.rate() < 0.99 {
			t.Errorf("%s: %.2f%% of the verdicts right, want at least 99%%", form, 100*tt.rate())
		}
		if tt.falseRejects > 0 {
			t.Errorf("%s: %d valid instances refused, want none", form, tt.falseRejects)
		}
	}
}

// suiteSchema builds the tool's input schema for a case's schema in the
// given form; false when the form cannot hold it (a boolean schema is not
// a tool's input schema).
func suiteSchema(raw json.RawMessage, form string, group int) (map[string]any, bool) {
	var s any
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, false
	}
	if form == "input" {
		m, ok := s.(map[string]any)
		return m, ok
	}
	if m, ok := s.(map[string]any); ok {
		if _, has := m["$id"]; !has {
			m["$id"] = fmt.Sprintf("https://toolgen.invalid/suite/wrapped-%d.json", group)
		}
	}
	return map[string]any{
		"type":       "object",
		"properties": map[string]any{"x": s},
		"required":   []any{"x"},
	}, true
}

func suiteExecutor(t *testing.T, s map[string]any) *tool.Executor {
	t.Helper()
	r := tool.NewRegistry()
	ran := tool.New(tool.Definition{Name: "Suite", InputSchema: s}, func(context.Context, tool.Input, tool.Context) tool.Result {
		return tool.Success("ran")
	})
	if err := r.Register(ran); err != nil {
		t.Fatal(err)
	}
	return tool.NewExecutor(r, tool.WithSchemaMode(schema.Enforce), tool.WithLogger(slog.New(slog.DiscardHandler)))
}
