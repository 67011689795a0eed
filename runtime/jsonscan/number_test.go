package jsonscan

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/toolgen/toolgen/runtime/schema"
)

func TestInt64Of(t *testing.T) {
	tests := []struct {
		name string
		v    any
		bits int
		want int64
		mm   Mismatch
	}{
		{"float integral", 3.0, 64, 3, Match},
		{"float fractional", 3.5, 64, 0, WrongType},
		{"int", 7, 64, 7, Match},
		{"uint8", uint8(200), 8, 0, OutOfRange},
		{"int8 range", 127.0, 8, 127, Match},
		{"int8 over", 128.0, 8, 0, OutOfRange},
		{"int8 under", -129, 8, 0, OutOfRange},
		{"numeric string", "10", 64, 10, Match},
		{"string float integral", "3.0", 64, 3, Match},
		{"string fractional", "3.5", 64, 0, WrongType},
		{"string word", "ten", 64, 0, WrongType},
		{"string nan", "NaN", 64, 0, WrongType},
		{"string huge", "99999999999999999999", 64, 0, OutOfRange},
		{"json number", json.Number("42"), 64, 42, Match},
		{"nan", math.NaN(), 64, 0, NotFinite},
		{"inf", math.Inf(1), 64, 0, NotFinite},
		{"float beyond int64", 1e19, 64, 0, OutOfRange},
		{"max uint64", uint64(math.MaxUint64), 64, 0, OutOfRange},
		{"bool", true, 64, 0, WrongType},
		{"nil", nil, 64, 0, WrongType},
		{"slice", []any{1}, 64, 0, WrongType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, mm := Int64Of(tt.v, tt.bits)
			if got != tt.want || mm != tt.mm {
				t.Errorf("Int64Of(%#v, %d) = %d, %v; want %d, %v", tt.v, tt.bits, got, mm, tt.want, tt.mm)
			}
		})
	}
}

func TestUint64Of(t *testing.T) {
	tests := []struct {
		v    any
		bits int
		want uint64
		mm   Mismatch
	}{
		{3.0, 64, 3, Match},
		{-1, 64, 0, OutOfRange},
		{-1.0, 64, 0, OutOfRange},
		{256, 8, 0, OutOfRange},
		{"255", 8, 255, Match},
		{"-3", 64, 0, OutOfRange},
		{uint64(math.MaxUint64), 64, math.MaxUint64, Match},
		{1.5, 64, 0, WrongType},
		{"x", 64, 0, WrongType},
	}
	for _, tt := range tests {
		got, mm := Uint64Of(tt.v, tt.bits)
		if got != tt.want || mm != tt.mm {
			t.Errorf("Uint64Of(%#v, %d) = %d, %v; want %d, %v", tt.v, tt.bits, got, mm, tt.want, tt.mm)
		}
	}
}

func TestFloat64Of(t *testing.T) {
	tests := []struct {
		v    any
		bits int
		want float64
		mm   Mismatch
	}{
		{3.5, 64, 3.5, Match},
		{3, 64, 3, Match},
		{"2.5", 64, 2.5, Match},
		{"Inf", 64, 0, WrongType},
		{math.Inf(-1), 64, 0, NotFinite},
		{1e300, 32, 0, OutOfRange},
		{1e300, 64, 1e300, Match},
		{json.Number("1e2"), 64, 100, Match},
		{false, 64, 0, WrongType},
	}
	for _, tt := range tests {
		got, mm := Float64Of(tt.v, tt.bits)
		if got != tt.want || mm != tt.mm {
			t.Errorf("Float64Of(%#v, %d) = %v, %v; want %v, %v", tt.v, tt.bits, got, mm, tt.want, tt.mm)
		}
	}
}

// TestIntegerAgreesWithTheGate: what reads as a Go integer here is what
// the schema gate calls an "integer", for every value both read (within
// int64's range): both ask schema.Integral.
func TestIntegerAgreesWithTheGate(t *testing.T) {
	s := map[string]any{"properties": map[string]any{"x": map[string]any{"type": "integer"}}}
	for _, v := range []any{0.0, 3.0, -3.0, 3.5, 1e15, 1e15 + 0.5, -0.0, 2.5e-300, json.Number("4"), json.Number("4.0"), json.Number("4.5"), json.Number("1e3"), 7, int8(-2), uint16(9), float32(1.5), float32(2)} {
		gate := schema.Validate(s, map[string]any{"x": v}) == nil
		_, mm := Int64Of(v, 64)
		if read := mm == Match; gate != read {
			t.Errorf("%#v: the gate says integer=%v, Int64Of says %v", v, gate, read)
		}
	}
}
