// Command tooleval measures the tool catalog's search on a tool-retrieval
// set: it loads the tools of -tools into a catalog as deferred tools, runs
// every request of -queries through the catalog's search, and prints
// recall@1, recall@5, recall@10 and MRR for each ranking strategy. The last
// line is the default strategy's, in the form
//
//	default recall@5=0.912 mrr=0.845
//
// Usage:
//
//	tooleval -tools FILE -queries FILE [-variants]
//
// Both files are JSON lines: tools as {"name", "description",
// "parameters"}, queries as {"query", "gold": [names]} (the format of the
// shared toolret set). -variants adds rows for variants of the default
// (each change on its own), to show what each part of it is worth.
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
	flag.Usage = func() {
		fmt.Fprintf(os.Stderr, "usage: tooleval -tools FILE -queries FILE [-variants]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	if *toolsPath == "" || *queriesPath == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if err := eval.Run(os.Stdout, *toolsPath, *queriesPath, *variants); err != nil {
		log.Fatal(err)
	}
}
