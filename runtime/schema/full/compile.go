package full

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/toolgen/toolgen/runtime/schema/internal/complete"
)

func init() { complete.Register(compile) }

// rootURL is the address a compiled schema document is filed under. It is
// never fetched: references that leave the document are refused (see
// noLoader). The .invalid domain can never resolve.
const rootURL = "https://toolgen.invalid/input-schema.json"

// printer words the validator's own texts (compile errors, rare kinds).
var printer = message.NewPrinter(language.English)

// noLoader refuses every document the schema refers to by address: a tool's
// schema is checked on its own, and the gate reads neither the network nor
// the disk on a schema's behalf.
type noLoader struct{}

func (noLoader) Load(u string) (any, error) {
	return nil, fmt.Errorf("the gate does not load %s: put what the schema refers to in the schema itself (\"$defs\")", u)
}

// olderDrafts are the dialects before 2019-09, where the validator asserts
// "format" by default; the gate keeps it an annotation there too.
var olderDrafts = []string{"draft-04", "draft-06", "draft-07"}

// annotationFormats are the formats the validator knows ("regex" cannot be
// replaced, so it stays asserted in the older drafts).
var annotationFormats = []string{
	"date-time", "date", "time", "duration", "period", "email", "idn-email",
	"hostname", "idn-hostname", "ipv4", "ipv6", "uri", "uri-reference", "iri",
	"iri-reference", "uri-template", "json-pointer", "relative-json-pointer",
	"uuid", "semver",
}

// compiled is a schema compiled for complete validation.
type compiled struct {
	sch *jsonschema.Schema
	// nullable tells, for each top-level property asked about, whether
	// its schema accepts null.
	nullable map[string]bool
}

// compile compiles doc (JSON values, numbers as json.Number) for complete
// validation: a complete.Compiler.
func compile(doc any, names []string) (s complete.Schema, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("the schema does not compile: the validator failed: %v", p)
		}
	}()
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(noLoader{})
	if root, ok := doc.(map[string]any); ok {
		if sch, ok := root["$schema"].(string); ok && isOlderDraft(sch) {
			for _, f := range annotationFormats {
				c.RegisterFormat(&jsonschema.Format{Name: f, Validate: func(any) error { return nil }})
			}
		}
	}
	if err := c.AddResource(rootURL, doc); err != nil {
		return nil, compileError(err)
	}
	sch, err := c.Compile(rootURL)
	if err != nil {
		return nil, compileError(err)
	}
	f := &compiled{sch: sch, nullable: make(map[string]bool, len(names))}
	props, _ := propertiesOf(doc)
	for _, name := range names {
		if _, declared := props[name]; !declared {
			continue // required but not described: any value, null too
		}
		sub, err := c.Compile(rootURL + "#/properties/" + pointerToken(name))
		if err != nil {
			continue // a name the fragment cannot carry: the caller judges
		}
		f.nullable[name] = sub.Validate(nil) == nil
	}
	return f, nil
}

func (f *compiled) Nullable(name string) (accepts, ok bool) {
	accepts, ok = f.nullable[name]
	return accepts, ok
}

func (f *compiled) Validate(inst any) *complete.Error {
	err := f.sch.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &complete.Error{Kind: complete.Group, InDoc: true}
	}
	return convert(ve)
}

func isOlderDraft(s string) bool {
	for _, d := range olderDrafts {
		if strings.Contains(s, "json-schema.org/"+d+"/") {
			return true
		}
	}
	return false
}

// pointerToken escapes a property name for a JSON pointer in a URL fragment.
func pointerToken(name string) string {
	name = strings.ReplaceAll(name, "~", "~0")
	name = strings.ReplaceAll(name, "/", "~1")
	return url.PathEscape(name)
}

// propertiesOf returns a schema object's "properties".
func propertiesOf(s any) (map[string]any, bool) {
	m, ok := s.(map[string]any)
	if !ok {
		return nil, false
	}
	p, ok := m["properties"].(map[string]any)
	return p, ok
}

// compileError words why a schema does not compile.
func compileError(err error) error {
	var sv *jsonschema.SchemaValidationError
	if errors.As(err, &sv) {
		var ve *jsonschema.ValidationError
		if errors.As(sv.Err, &ve) {
			var parts []string
			for _, l := range leaves(ve) {
				at := "/" + strings.Join(l.InstanceLocation, "/")
				parts = append(parts, fmt.Sprintf("at %s: %s", at, l.ErrorKind.LocalizedString(printer)))
				if len(parts) == 5 {
					break
				}
			}
			return fmt.Errorf("the schema is not a valid JSON schema: %s", strings.Join(parts, "; "))
		}
	}
	msg := err.Error()
	msg = strings.ReplaceAll(msg, rootURL, "the schema")
	return fmt.Errorf("the schema does not compile: %s", msg)
}

// leaves returns the errors at the bottom of an error tree.
func leaves(ve *jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(ve.Causes) == 0 {
		return []*jsonschema.ValidationError{ve}
	}
	var out []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}
