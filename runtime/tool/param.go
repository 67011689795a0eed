package tool

import (
	"reflect"

	"github.com/toolgen/toolgen/runtime/jsonscan"
	"github.com/toolgen/toolgen/runtime/schema"
)

// paramType is what Param, ParamOr and OptParam read a parameter as: a
// string, a boolean, an integer or a floating-point number of any Go kind
// (and named types of them).
type paramType interface {
	~string | ~bool |
		~int | ~int8 | ~int16 | ~int32 | ~int64 |
		~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 |
		~float32 | ~float64
}

// Param returns the value of the required parameter key as a T: a string,
// a boolean, or a number of any Go integer or float kind. A missing or
// mistyped value is an error worded as the schema gate words it, so a tool
// can hand it to the model as it is:
//
//	name, err := tool.Param[string](in, "name")
//	if err != nil {
//		return tool.FailureFrom(err)
//	}
//
// Only strings are strings and only booleans are booleans. A number is an
// integer when its value is integral (3 and 3.0; not 3.5) and T's range
// holds it; a string holding a number ("10") is read as one, except in the
// Input the Executor hands a tool that checks its own input under
// schema.Enforce (see Executor), as the gate would refuse it. What a
// number is, is package jsonscan's to say.
func Param[T paramType](in Input, key string) (T, error) {
	v, ok, err := OptParam[T](in, key)
	if !ok {
		return v, schema.Required(key, jsonTypeOf[T]())
	}
	return v, err
}

// ParamOr is Param for an optional parameter: def when key is absent. A
// mistyped value is an error.
func ParamOr[T paramType](in Input, key string, def T) (T, error) {
	v, ok, err := OptParam[T](in, key)
	if !ok || err != nil {
		return def, err
	}
	return v, nil
}

// OptParam is Param for an optional parameter whose absence the tool
// tells from a value: ok is false when key is absent. A mistyped value is
// an error.
func OptParam[T paramType](in Input, key string) (v T, ok bool, err error) {
	raw, ok := in.args()[key]
	if !ok {
		return v, false, nil
	}
	rv := reflect.ValueOf(&v).Elem()
	mm := jsonscan.Match
	switch rv.Kind() {
	case reflect.String:
		s, isString := raw.(string)
		if !isString {
			return v, true, schema.WrongType(key, "string")
		}
		rv.SetString(s)
		return v, true, nil
	case reflect.Bool:
		b, isBool := raw.(bool)
		if !isBool {
			return v, true, schema.WrongType(key, "boolean")
		}
		rv.SetBool(b)
		return v, true, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		var n int64
		n, mm = jsonscan.Int64Of(raw, rv.Type().Bits())
		rv.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		var n uint64
		n, mm = jsonscan.Uint64Of(raw, rv.Type().Bits())
		rv.SetUint(n)
	default: // a float kind
		var f float64
		f, mm = jsonscan.Float64Of(raw, rv.Type().Bits())
		rv.SetFloat(f)
	}
	if _, isString := raw.(string); isString && in.strict {
		mm = jsonscan.WrongType
	}
	if mm != jsonscan.Match {
		var zero T
		return zero, true, mismatchError(key, jsonTypeOf[T](), mm)
	}
	return v, true, nil
}

// jsonTypeOf names the JSON type a T is read from.
func jsonTypeOf[T paramType]() string {
	switch reflect.TypeFor[T]().Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Float32, reflect.Float64:
		return "number"
	}
	return "integer"
}
