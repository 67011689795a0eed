package tool

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/toolgen/toolgen/runtime/jsonscan"
)

func TestAsInt64(t *testing.T) {
	tests := []struct {
		name string
		v    any
		bits int
		want int64
		mm   jsonscan.Mismatch
	}{
		{"float integral", 3.0, 64, 3, jsonscan.Match},
		{"float fractional", 3.5, 64, 0, jsonscan.WrongType},
		{"int", 7, 64, 7, jsonscan.Match},
		{"uint8", uint8(200), 8, 0, jsonscan.OutOfRange},
		{"int8 range", 127.0, 8, 127, jsonscan.Match},
		{"int8 over", 128.0, 8, 0, jsonscan.OutOfRange},
		{"int8 under", -129, 8, 0, jsonscan.OutOfRange},
		{"numeric string", "10", 64, 10, jsonscan.Match},
		{"string float integral", "3.0", 64, 3, jsonscan.Match},
		{"string fractional", "3.5", 64, 0, jsonscan.WrongType},
		{"string word", "ten", 64, 0, jsonscan.WrongType},
		{"string nan", "NaN", 64, 0, jsonscan.WrongType},
		{"string huge", "99999999999999999999", 64, 0, jsonscan.OutOfRange},
		{"json number", json.Number("42"), 64, 42, jsonscan.Match},
		{"nan", math.NaN(), 64, 0, jsonscan.NotFinite},
		{"inf", math.Inf(1), 64, 0, jsonscan.NotFinite},
		{"float beyond int64", 1e19, 64, 0, jsonscan.OutOfRange},
		{"max uint64", uint64(math.MaxUint64), 64, 0, jsonscan.OutOfRange},
		{"bool", true, 64, 0, jsonscan.WrongType},
		{"nil", nil, 64, 0, jsonscan.WrongType},
		{"slice", []any{1}, 64, 0, jsonscan.WrongType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, mm := asInt64(tt.v, tt.bits)
			if got != tt.want || mm != tt.mm {
				t.Errorf("asInt64(%#v, %d) = %d, %v; want %d, %v", tt.v, tt.bits, got, mm, tt.want, tt.mm)
			}
		})
	}
}

func TestAsUint64(t *testing.T) {
	tests := []struct {
		v    any
		bits int
		want uint64
		mm   jsonscan.Mismatch
	}{
		{3.0, 64, 3, jsonscan.Match},
		{-1, 64, 0, jsonscan.OutOfRange},
		{-1.0, 64, 0, jsonscan.OutOfRange},
		{256, 8, 0, jsonscan.OutOfRange},
		{"255", 8, 255, jsonscan.Match},
		{"-3", 64, 0, jsonscan.OutOfRange},
		{uint64(math.MaxUint64), 64, math.MaxUint64, jsonscan.Match},
		{1.5, 64, 0, jsonscan.WrongType},
		{"x", 64, 0, jsonscan.WrongType},
	}
	for _, tt := range tests {
		got, mm := asUint64(tt.v, tt.bits)
		if got != tt.want || mm != tt.mm {
			t.Errorf("asUint64(%#v, %d) = %d, %v; want %d, %v", tt.v, tt.bits, got, mm, tt.want, tt.mm)
		}
	}
}

func TestAsFloat64(t *testing.T) {
	tests := []struct {
		v    any
		bits int
		want float64
		mm   jsonscan.Mismatch
	}{
		{3.5, 64, 3.5, jsonscan.Match},
		{3, 64, 3, jsonscan.Match},
		{"2.5", 64, 2.5, jsonscan.Match},
		{"Inf", 64, 0, jsonscan.WrongType},
		{math.Inf(-1), 64, 0, jsonscan.NotFinite},
		{1e300, 32, 0, jsonscan.OutOfRange},
		{1e300, 64, 1e300, jsonscan.Match},
		{json.Number("1e2"), 64, 100, jsonscan.Match},
		{false, 64, 0, jsonscan.WrongType},
	}
	for _, tt := range tests {
		got, mm := asFloat64(tt.v, tt.bits)
		if got != tt.want || mm != tt.mm {
			t.Errorf("asFloat64(%#v, %d) = %v, %v; want %v, %v", tt.v, tt.bits, got, mm, tt.want, tt.mm)
		}
	}
}

func TestAsStringBool(t *testing.T) {
	if s, ok := asString("x"); !ok || s != "x" {
		t.Errorf("asString(x) = %q, %v", s, ok)
	}
	if _, ok := asString(1.0); ok {
		t.Error("asString(1.0) accepted a number")
	}
	if b, ok := asBool(true); !ok || !b {
		t.Errorf("asBool(true) = %v, %v", b, ok)
	}
	if _, ok := asBool("true"); ok {
		t.Error(`asBool("true") accepted a string`)
	}
}
