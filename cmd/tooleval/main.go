// Command tooleval measures the tool catalog's search on a tool-retrieval
// set: it loads the tools of -tools into a catalog as deferred tools, runs
// every request of -queries through the catalog's search, and prints
// recall@1, recall@5, recall@10 and MRR for each ranking strategy, on each
// half of a fixed 2-fold split of the requests (by the FNV-1a hash of the
// request's id) and on the whole set.
//
// The knobs the catalog offers beyond the default (pseudo-relevance
// feedback, term associations) are then chosen on one half, by recall@5 +
// MRR over a small grid, and measured on the other half, in both
// directions, beside the default on the same half: a knob that does not
// beat the default on the half it was not chosen on does not hold. The
// last line is the default strategy's, on the whole set, in the form
//
//	default recall@5=0.913 mrr=0.850
//
// Usage:
//
//	tooleval -tools FILE -queries FILE [-variants] [-tune=false]
//
// Both files are JSON lines: tools as {"name", "description",
// "parameters"}, queries as {"id", "query", "gold": [names]} (the format of
// the shared toolret set). -variants adds rows for variants of the default
// (each change on its own), to show what each part of it is worth; -tune
// (on by default) runs the tuning tables.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"github.com/toolgen/toolgen/internal/eval"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("tooleval: ")
	toolsPath := flag.String("tools", "", "tools file, JSON lines; must be set")
	queriesPath := flag.String("queries", "", "queries file, JSON lines; must be set")
	variants := flag.Bool("variants", false, "also evaluate variants of the default strategy")
	tune := flag.Bool("tune", true, "choose each knob on one half of the split and report it on the other")
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: tooleval -tools FILE -queries FILE [-variants] [-tune=false]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *toolsPath == "" || *queriesPath == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := eval.RunWith(os.Stdout, *toolsPath, *queriesPath, eval.Options{Variants: *variants, Tune: *tune}); err != nil {
		log.Fatal(err)
	}
}
