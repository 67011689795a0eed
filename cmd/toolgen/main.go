package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/toolgen/toolgen/annotations"
	"github.com/toolgen/toolgen/internal/generate"
	"github.com/toolgen/toolgen/internal/load"
	"github.com/toolgen/toolgen/internal/textdiff"
)

func usage() {
	fmt.Fprintf(os.Stderr, "usage: toolgen [-check] [-v [-v]] [packages]\n\n")
	fmt.Fprintf(os.Stderr, "toolgen generates schemas, binders and tool constructors for structs\nmarked with //tool: directives. Packages default to \".\".\n")
	fmt.Fprintf(os.Stderr, "See https://pkg.go.dev/github.com/toolgen/toolgen/annotations for the grammar.\n\nFlags:\n")
	flag.PrintDefaults()
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("toolgen: ")
	check := flag.Bool("check", false, "write nothing; report stale, missing and orphaned files and exit 1 if any")
	var verbose verbosity
	flag.Var(&verbose, "v", "with -check, print a unified diff of each file; given twice (-v -v), also print the load errors toolgen tolerated")
	flag.Var(vv{&verbose}, "vv", "the same as -v -v")
	flag.Usage = usage
	flag.Parse()
	os.Exit(run(*check, int(verbose), flag.Args(), os.Stdout, os.Stderr))
}

// verbosity counts -v flags: -v -v is 2.
type verbosity int

func (v *verbosity) String() string   { return strconv.Itoa(int(*v)) }
func (v *verbosity) IsBoolFlag() bool { return true }
func (v *verbosity) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	if on {
		*v++
	}
	return nil
}

// vv is -vv, two -v at once.
type vv struct{ v *verbosity }

func (f vv) String() string {
	if f.v == nil {
		return "false"
	}
	return strconv.FormatBool(*f.v >= 2)
}
func (f vv) IsBoolFlag() bool { return true }
func (f vv) Set(s string) error {
	on, err := strconv.ParseBool(s)
	if err == nil && on {
		*f.v += 2
	}
	return err
}

// run is the whole command; it returns the exit code. verbose counts -v:
// 1 adds -check's diffs, 2 the tolerated load errors too.
func run(check bool, verbose int, patterns []string, stdout, stderr io.Writer) int {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return 2
	}
	rel := func(path string) string {
		if r, err := filepath.Rel(cwd, path); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return path
	}
	plan, err := generate.Run(load.Config{Patterns: patterns, Tests: true})
	var list annotations.ErrorList
	switch {
	case errors.As(err, &list):
		for _, e := range list {
			e.Pos.File = rel(e.Pos.File)
			fmt.Fprintln(stderr, e)
		}
		return 2
	case err != nil:
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return 2
	}
	for _, e := range plan.Notes {
		e.Pos.File = rel(e.Pos.File)
		fmt.Fprintf(stderr, "%s: warning: %s\n", e.Pos, e.Msg)
	}
	if verbose >= 2 {
		for _, w := range plan.Warnings {
			if file, rest, ok := strings.Cut(w, ":"); ok && filepath.IsAbs(file) {
				w = rel(file) + ":" + rest
			}
			fmt.Fprintf(stderr, "toolgen: tolerated: %s\n", w)
		}
	}
	if check {
		for _, c := range plan.Changes {
			fmt.Fprintf(stderr, "%s: %s\n", rel(c.Path), c.Status)
			if c.Status == generate.Stale {
				// Which tool, which field: what a reader fixes first.
				for _, tc := range generate.Explain(c.Old, c.New) {
					fmt.Fprintf(stderr, "\t%s\n", generate.Describe(tc))
				}
			}
			if verbose >= 1 {
				fmt.Fprint(stderr, textdiff.Unified("a/"+filepath.ToSlash(rel(c.Path)), "b/"+filepath.ToSlash(rel(c.Path)), string(c.Old), string(c.New)))
			}
		}
		if len(plan.Changes) > 0 {
			fmt.Fprintf(stderr, "toolgen: generated files are out of date; run \"go generate ./...\" (or toolgen) and commit the result\n")
			return 1
		}
		return 0
	}
	if err := plan.Apply(); err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return 1
	}
	for _, c := range plan.Changes {
		if c.New == nil {
			fmt.Fprintf(stdout, "removed %s\n", rel(c.Path))
		} else {
			fmt.Fprintf(stdout, "%s\n", rel(c.Path))
		}
	}
	return 0
}
