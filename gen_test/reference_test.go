package gentest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen/toolgen/examples/quickstart/echo"
	"github.com/toolgen/toolgen/gen_test/grep"
	"github.com/toolgen/toolgen/gen_test/read"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

// The reference differential: for any bytes, a generated binder (after
// DecodeInput, the public path) accepts them iff a strict reference does,
// and then binds the same value. The reference is encoding/json, strict
// (unknown fields refused, duplicate keys refused, one object and nothing
// after it), decoding into a value holding the schema's defaults, plus
// runtime/schema's validator over the same arguments. Its fast gate decides
// a generated schema completely, so the test does not link the complete
// validation (runtime/schema/full); a schema it would need fails the test.
//
// encoding/json reads numbers more narrowly than JSON Schema: it refuses
// 2.0 or 1e2 for an int, which the schema (and so the binder) accepts as
// integers. The reference therefore decodes the arguments as the validator
// read them (re-encoded from the decoded map), and leaves out texts with
// integers a float64 cannot hold. It also leaves out numeric strings
// ("10"), which a binder reads as numbers outside the gate's enforce mode
// and which both references refuse; TestExecutorRawPath covers them.

// refCase is one input type under the reference differential.
type refCase[T any] struct {
	schema map[string]any
	bind   func(tool.Input) (T, error)
}

var (
	echoRef = refCase[echo.EchoInput]{echo.NewEchoTool(echo.Echo).Definition().InputSchema, echo.BindEchoInput}
	grepRef = refCase[grep.GrepInput]{grep.NewGrepTool(func(_ context.Context, _ grep.GrepInput, _ tool.Context) (string, error) { return "", nil }).Definition().InputSchema, grep.BindGrepInput}
	readRef = refCase[read.ReadInput]{read.NewReadTool(func(_ context.Context, _ read.ReadInput, _ tool.Context) (string, error) { return "", nil }).Definition().InputSchema, read.BindReadInput}
)

// check runs the differential on data.
func (c refCase[T]) check(t *testing.T, data []byte) {
	t.Helper()
	if inexact(data) || numericString(data) {
		return
	}
	var got T
	in, err := tool.DecodeInput(data)
	binderOK := err == nil
	if binderOK {
		got, err = c.bind(in)
		binderOK = err == nil
	}
	want, refErr := c.reference(data)
	switch {
	case binderOK && refErr != nil:
		t.Fatalf("%q: the binder accepted what the reference refuses: %v", data, refErr)
	case !binderOK && refErr == nil:
		t.Fatalf("%q: the binder refused what the reference accepts: %v", data, err)
	case binderOK:
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%q: values differ (-reference +binder):\n%s", data, diff)
		}
	}
}

// reference binds data with encoding/json and the schema validator.
func (c refCase[T]) reference(data []byte) (T, error) {
	var out T
	if err := noDuplicates(data); err != nil {
		return out, err
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&m); err != nil {
		return out, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return out, errors.New("more after the object")
	}
	if m == nil {
		return out, errors.New("not an object")
	}
	for k, v := range m {
		if v == nil {
			delete(m, k) // null is absent, as tool.Input has it
		}
	}
	v, err := schema.Compile(c.schema)
	if err != nil {
		return out, err
	}
	if err := v.Incomplete(); err != nil {
		panic("the reference needs a validator that decides the schema: " + err.Error())
	}
	if vs := v.Validate(m); len(vs) > 0 {
		return out, vs
	}
	// The schema's defaults first, then the arguments over them.
	defaults := map[string]any{}
	props, _ := c.schema["properties"].(map[string]any)
	for name, p := range props {
		if d, ok := p.(map[string]any)["default"]; ok {
			defaults[name] = d
		}
	}
	if err := json.Unmarshal(mustMarshal(defaults), &out); err != nil {
		return out, err
	}
	strict := json.NewDecoder(bytes.NewReader(mustMarshal(m)))
	strict.DisallowUnknownFields()
	err = strict.Decode(&out)
	return out, err
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// noDuplicates refuses a text giving a key twice in one object, at any
// depth, as encoding/json does not.
func noDuplicates(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object bool
		keys   map[string]bool
		key    bool // the next string token is a key
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &frame{object: true, keys: map[string]bool{}, key: true})
			case '[':
				if top != nil && top.object {
					top.key = true
				}
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if top == nil || !top.object {
			continue
		}
		if top.key {
			k := tok.(string)
			if top.keys[k] {
				return errors.New("key " + strconv.Quote(k) + " given twice")
			}
			top.keys[k] = true
			top.key = false
		} else {
			top.key = true
		}
	}
}

// numericString reports whether data holds a string that reads as a
// number once the spaces around it are trimmed, as the binders' coercion
// of numeric strings reads it (jsonscan.ParseInt: " 1" is 1).
func numericString(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		if s, ok := tok.(string); ok {
			if _, err := strconv.ParseFloat(strings.TrimSpace(s), 64); err == nil {
				return true
			}
		}
	}
}

func TestReferenceDifferential(t *testing.T) {
	for _, s := range echoSeeds {
		echoRef.check(t, []byte(s))
	}
	for _, s := range grepSeeds {
		grepRef.check(t, []byte(s))
	}
	for _, s := range readSeeds {
		readRef.check(t, []byte(s))
	}
}

var readSeeds = []string{
	`{"file_path":"/a"}`, `{"file_path":"/a","offset":2,"limit":3.0}`, `{"file_path":null}`, `{"file_path":"/a","limit":null}`,
	`{"file_path":1,"offset":"x","limit":1.5,"lines":2}`, `{"offset":9223372036854775807}`, `{"file_path":"/a","offset":1e19}`,
}

// FuzzReferenceEcho is the reference differential of the Echo binder.
func FuzzReferenceEcho(f *testing.F) {
	for _, s := range echoSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { echoRef.check(t, data) })
}

// FuzzReferenceGrep is the reference differential of the Grep binder.
func FuzzReferenceGrep(f *testing.F) {
	for _, s := range grepSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { grepRef.check(t, data) })
}

// FuzzReferenceRead is the reference differential of the Read binder.
func FuzzReferenceRead(f *testing.F) {
	for _, s := range readSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { readRef.check(t, data) })
}
