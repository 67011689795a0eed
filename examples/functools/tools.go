package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// Add adds two digits.
//
//tool:name calculator
//tool:description Adds two digits and returns the sum.
//tool:concurrency safe
//tool:side-effect read-only
//tool:param digit1 min=0,max=9 The first digit to add.
//tool:param digit2 min=0,max=9 The second digit to add.
func Add(ctx context.Context, digit1, digit2 int) (int, error) {
	return digit1 + digit2, ctx.Err()
}

// Shelf holds the books a library lends.
type Shelf struct{ titles []string }

// Search finds the books whose title holds a word, at most limit of them.
//
//tool:name search_books
//tool:description Finds the books whose title holds a word.
//tool:concurrency safe
//tool:side-effect read-only
//tool:param word minlen=2 A word of the title, in any case.
//tool:param limit default=3,min=1,max=10 How many books to return at most.
func (s *Shelf) Search(word string, limit int) []string {
	var out []string
	for _, t := range s.titles {
		if len(out) < limit && strings.Contains(strings.ToLower(t), strings.ToLower(word)) {
			out = append(out, t)
		}
	}
	return out
}

// Lend lends a book, or says why it cannot.
//
//tool:name lend_book
//tool:description Lends a book by its exact title, or says why it cannot.
//tool:side-effect mutating
//tool:param title The book's exact title.
func (s *Shelf) Lend(title string) error {
	for _, t := range s.titles {
		if t == title {
			return nil
		}
	}
	return fmt.Errorf("no book is titled %q", title)
}

// SumInput is the calculator written the struct way, for comparison: the
// same schema and the same answers to bad calls as the function tool.
//
//tool:name calculator_struct
//tool:description Adds two digits and returns the sum.
//tool:concurrency safe
//tool:side-effect read-only
type SumInput struct {
	// The first digit to add.
	Digit1 int `json:"digit1" tool:"min=0,max=9,required"`
	// The second digit to add.
	Digit2 int `json:"digit2" tool:"min=0,max=9,required"`
}

// sum is the struct tool's function.
func sum(ctx context.Context, in SumInput, _ tool.Context) (int, error) {
	return in.Digit1 + in.Digit2, ctx.Err()
}
