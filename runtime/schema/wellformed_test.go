package schema

import (
	"testing"

	"github.com/toolgen/toolgen/runtime/schema/internal/complete"
)

// FuzzWellFormed holds the shape check to its promise: it refuses no
// schema the complete validation compiles (it asserts only what the
// metaschemas of draft 2020-12 and 2019-09 assert), and it never panics.
func FuzzWellFormed(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"type":["string","null"],"enum":["x",null],"minLength":1}},"required":["a"],"additionalProperties":false}`,
		`{"$defs":{"n":{"type":"integer","multipleOf":0.5}},"properties":{"n":{"$ref":"#/$defs/n"}},"items":[{"type":"string"}]}`,
		`{"$schema":"https://json-schema.org/draft/2019-09/schema","items":[true,false],"additionalItems":false,"$recursiveAnchor":true}`,
		`{"allOf":[{"anyOf":[{"not":{"const":1}}]}],"dependentRequired":{"a":["b"]},"patternProperties":{"^x-":{}}}`,
		`{"$id":"https://example.com/s#","$anchor":"a1","examples":[1],"deprecated":true,"prefixItems":[{}],"$dynamicAnchor":"m"}`,
		`{"properties":{"a":{"type":"strng"}},"required":["a","a"],"title":7}`,
		`{"minLength":1.0,"maxItems":1e2,"minimum":-1.5,"uniqueItems":"yes","format":1}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		doc, err := decodeNumbers(data)
		if err != nil {
			return
		}
		shapeErr := wellFormed(doc)
		c := complete.Registered()
		if c == nil {
			t.Skip("the complete validation is not linked")
		}
		if _, err := c(doc, nil); err == nil && shapeErr != nil {
			t.Errorf("the shape check refused a schema the complete validation compiles: %v\n%s", shapeErr, data)
		}
	})
}
