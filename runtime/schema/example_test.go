package schema_test

import (
	"fmt"

	"github.com/toolgen/toolgen/runtime/schema"
)

func ExampleValidator_Validate() {
	v, err := schema.Compile(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"file_path": map[string]any{"type": "string"},
			"limit":     map[string]any{"type": "integer", "minimum": 1},
			"mode":      map[string]any{"type": "string", "enum": []any{"text", "json"}},
		},
		"required":             []any{"file_path"},
		"additionalProperties": false,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	// Arguments as encoding/json decodes them.
	fmt.Println(v.Validate(map[string]any{"file_path": "/tmp/a", "limit": 10.0}).Err())
	fmt.Println(v.Validate(map[string]any{"file_paht": "/tmp/a", "limit": 2.5, "mode": "xml"}).Err())
	// Output:
	// <nil>
	// Parameter 'file_path' is required (string).
	// Unknown parameter 'file_paht'. Did you mean 'file_path'?
	// Parameter 'limit' must be an integer.
	// Parameter 'mode' must be one of [text, json], but was 'xml'. The tool was not executed.
}

func ExampleSuggest() {
	tools := []string{"Bash", "Edit", "Glob", "Grep", "Read", "Write"}
	if name, ok := schema.Suggest("raed", tools); ok {
		fmt.Printf("Unknown tool 'raed'. Did you mean '%s'?\n", name)
	}
	// Output:
	// Unknown tool 'raed'. Did you mean 'Read'?
}
