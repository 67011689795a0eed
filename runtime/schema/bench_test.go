package schema

import "testing"

// grepSchema is shaped like the Grep tool's input schema: 13 parameters.
func grepSchema() map[string]any {
	str := func(d string) map[string]any { return map[string]any{"type": "string", "description": d} }
	integer := func(d string) map[string]any { return map[string]any{"type": "integer", "description": d} }
	boolean := func(d string) map[string]any { return map[string]any{"type": "boolean", "description": d} }
	return map[string]any{
		"type": "object",
		"properties": map[string]any{
			"pattern": str("The regular expression to search for."),
			"path":    str("File or directory to search in."),
			"glob":    str("Glob pattern to filter files."),
			"type":    str("File type to search."),
			"output_mode": map[string]any{
				"type":        "string",
				"enum":        []any{"content", "files_with_matches", "count"},
				"description": "Output mode.",
			},
			"-i":         boolean("Case insensitive search."),
			"-n":         boolean("Show line numbers."),
			"multiline":  boolean("Let patterns span lines."),
			"-A":         integer("Lines after each match."),
			"-B":         integer("Lines before each match."),
			"-C":         integer("Lines around each match."),
			"head_limit": map[string]any{"type": "integer", "minimum": 0},
			"offset":     map[string]any{"type": "integer", "minimum": 0},
		},
		"required":             []any{"pattern"},
		"additionalProperties": false,
	}
}

// grepValid sets every parameter, with values as encoding/json decodes them.
func grepValid() map[string]any {
	return map[string]any{
		"pattern": "func .*Validate", "path": "runtime", "glob": "*.go", "type": "go",
		"output_mode": "content", "-i": true, "-n": true, "multiline": false,
		"-A": 2.0, "-B": 2.0, "-C": 0.0, "head_limit": 100.0, "offset": 0.0,
	}
}

// grepInvalid has three violations: pattern missing, -A a string, and
// output_mode outside its enum.
func grepInvalid() map[string]any {
	return map[string]any{
		"path": "runtime", "glob": "*.go", "type": "go",
		"output_mode": "lines", "-i": true, "-n": true, "multiline": false,
		"-A": "2", "-B": 2.0, "-C": 0.0, "head_limit": 100.0, "offset": 0.0,
	}
}

func BenchmarkValidate(b *testing.B) {
	v, err := Compile(grepSchema())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("valid", func(b *testing.B) {
		args := grepValid()
		b.ReportAllocs()
		for b.Loop() {
			if vs := v.Validate(args); vs != nil {
				b.Fatal(vs)
			}
		}
	})
	b.Run("3violations", func(b *testing.B) {
		args := grepInvalid()
		b.ReportAllocs()
		for b.Loop() {
			if vs := v.Validate(args); len(vs) != 3 {
				b.Fatal(vs)
			}
		}
	})
	b.Run("unknown", func(b *testing.B) {
		args := grepValid()
		args["head_limt"] = 10.0
		b.ReportAllocs()
		for b.Loop() {
			if vs := v.Validate(args); len(vs) != 1 {
				b.Fatal(vs)
			}
		}
	})
}

func BenchmarkCompile(b *testing.B) {
	s := grepSchema()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(s); err != nil {
			b.Fatal(err)
		}
	}
}
