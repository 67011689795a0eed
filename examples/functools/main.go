// Command functools shows tools made from plain Go functions: a function,
// a method whose receiver the constructor takes, and a method that only
// returns an error, each annotated with //tool: directives and generated
// by toolgen, beside the same calculator written as a struct tool; it
// prints what the model sees for a few calls.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"

	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	if err := run(os.Stdout); err != nil {
		log.Fatal(err)
	}
}

func run(w io.Writer) error {
	shelf := &Shelf{titles: []string{"The Go Programming Language", "Go in Practice", "Programming Pearls"}}
	reg := tool.NewRegistry()
	for _, t := range []tool.Tool{NewAddTool(), NewSumTool(sum), NewShelfSearchTool(shelf), NewShelfLendTool(shelf)} {
		if err := reg.Register(t); err != nil {
			return err
		}
	}
	exec := tool.NewExecutor(reg, tool.WithSchemaMode(schema.Enforce), tool.WithLogger(slog.New(slog.DiscardHandler)))
	for _, c := range []struct{ name, args string }{
		{"calculator", `{"digit1":3,"digit2":4}`},
		{"calculator", `{"digit1":12}`},
		{"calculator_struct", `{"digit1":12}`},
		{"search_books", `{"word":"go"}`},
		{"lend_book", `{"title":"Programming Pearls"}`},
		{"lend_book", `{"title":"Dune"}`},
	} {
		in, err := tool.DecodeInput([]byte(c.args))
		if err != nil {
			return err
		}
		res := exec.Execute(context.Background(), tool.Call{Name: c.name, Input: in}, tool.NewContext())
		fmt.Fprintf(w, "%s %s\n  -> error=%v %s\n", c.name, c.args, res.IsError, res.Content)
	}
	return nil
}
