package docprog

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/format"
	"go/scanner"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// A Program is a complete Go program found in a markdown page.
type Program struct {
	// Line is the page's line (from 1) of the code's first line.
	Line int
	// Source is the code, as the block holds it.
	Source string
}

// A Block is one fenced code block of a markdown page.
type Block struct {
	// Line is the page's line (from 1) of the opening fence.
	Line int
	// Info is the first word of the fence's info string ("go", "sh").
	Info string
	// Body is the code, unindented as far as the fence was.
	Body string
	// Before is the text between the previous block (or the page's
	// start) and this one.
	Before string
}

// Blocks returns the fenced code blocks of the markdown md, in order
// (CommonMark fences: backquotes or tildes, three or more, indented up to
// three spaces). A fence opened and never closed is an error.
func Blocks(md string) ([]Block, error) {
	var out []Block
	var prose strings.Builder
	lines := strings.SplitAfter(md, "\n")
	for i := 0; i < len(lines); i++ {
		indent, fence, info, ok := openFence(lines[i])
		if !ok {
			prose.WriteString(lines[i])
			continue
		}
		open := i + 1
		var body strings.Builder
		closed := false
		for i++; i < len(lines); i++ {
			if closesFence(lines[i], fence) {
				closed = true
				break
			}
			body.WriteString(unindent(lines[i], indent))
		}
		if !closed {
			return nil, fmt.Errorf("line %d: code block never closed: close it with %s", open, fence)
		}
		out = append(out, Block{Line: open, Info: info, Body: body.String(), Before: prose.String()})
		prose.Reset()
	}
	return out, nil
}

// Programs returns the programs in the markdown md, in order: the fenced
// code blocks whose info string is "go" and whose code begins (after
// comments) with "package main". A fence opened and never closed is an
// error.
func Programs(md string) ([]Program, error) {
	blocks, err := Blocks(md)
	if err != nil {
		return nil, err
	}
	var out []Program
	for _, b := range blocks {
		if b.Info == "go" && isMain(b.Body) {
			out = append(out, Program{Line: b.Line + 1, Source: b.Body})
		}
	}
	return out, nil
}

// openFence reports whether line opens a fenced code block (CommonMark: up
// to three spaces, then three or more backquotes or tildes), with the
// fence, its indentation and the info string's first word.
func openFence(line string) (indent int, fence, info string, ok bool) {
	l := strings.TrimRight(line, "\r\n")
	for indent < len(l) && indent < 4 && l[indent] == ' ' {
		indent++
	}
	if indent > 3 || indent == len(l) || (l[indent] != '`' && l[indent] != '~') {
		return 0, "", "", false
	}
	rest := l[indent:]
	n := len(rest) - len(strings.TrimLeft(rest, rest[:1]))
	if n < 3 {
		return 0, "", "", false
	}
	fence, rest = rest[:n], rest[n:]
	if fence[0] == '`' && strings.Contains(rest, "`") {
		return 0, "", "", false // an info string of a backquote fence holds none
	}
	if f := strings.Fields(rest); len(f) > 0 {
		info = f[0]
	}
	return indent, fence, info, true
}

// closesFence reports whether line closes a block opened with fence: up to
// three spaces, at least as many of the same character, nothing after.
func closesFence(line, fence string) bool {
	l := strings.TrimRight(line, " \t\r\n")
	t := strings.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < len(fence) {
		return false
	}
	return strings.Trim(t, fence[:1]) == ""
}

// unindent removes up to indent leading spaces, as CommonMark does for the
// lines of an indented fence's block.
func unindent(line string, indent int) string {
	for i := 0; i < indent && strings.HasPrefix(line, " "); i++ {
		line = line[1:]
	}
	return line
}

// isMain reports whether src's first tokens, comments aside, are
// "package main".
func isMain(src string) bool {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	if _, tok, _ := s.Scan(); tok != token.PACKAGE {
		return false
	}
	_, tok, lit := s.Scan()
	return tok == token.IDENT && lit == "main"
}

var validName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// Build compiles src as a main package of the module in moduleDir, with
// the module's go.mod and go.sum, into outDir/name (outDir must exist and
// lie outside the module; a test passes t.TempDir()). Nothing is written
// into the module: the package's one file, main.go in
// moduleDir/internal/docprog_NAME (a directory that must not exist), is
// given to go build through -overlay. name is a lower-case identifier. The
// error holds go build's output.
func Build(ctx context.Context, moduleDir, name, src, outDir string) error {
	if !validName.MatchString(name) {
		return fmt.Errorf("docprog: program name %q: want a lower-case identifier", name)
	}
	mod, err := filepath.Abs(moduleDir)
	if err != nil {
		return fmt.Errorf("docprog: %w", err)
	}
	if _, err := os.Stat(filepath.Join(mod, "go.mod")); err != nil {
		return fmt.Errorf("docprog: %s is not a module's directory: %w", moduleDir, err)
	}
	rel := filepath.Join("internal", "docprog_"+name)
	pkgDir := filepath.Join(mod, rel)
	if _, err := os.Lstat(pkgDir); !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("docprog: %s exists; the program's package needs a directory of its own that does not", pkgDir)
	}
	file := filepath.Join(outDir, name+".go")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		return fmt.Errorf("docprog: %w", err)
	}
	overlay, err := json.Marshal(map[string]any{"Replace": map[string]string{filepath.Join(pkgDir, "main.go"): file}})
	if err != nil {
		return fmt.Errorf("docprog: %w", err)
	}
	overlayFile := filepath.Join(outDir, name+".overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		return fmt.Errorf("docprog: %w", err)
	}
	cmd := exec.CommandContext(ctx, "go", "build", "-overlay="+overlayFile, "-o", filepath.Join(outDir, name), "./"+filepath.ToSlash(rel))
	cmd.Dir = mod
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("docprog: go build: %v\n%s", err, bytes.TrimSpace(out))
	}
	return nil
}

// Check is a test's whole job for one page: the markdown file page must
// hold exactly one program, gofmt'd, and it must compile in the module in
// moduleDir (see Build; the program is named after the page). It skips
// under -short and when there is no go command.
func Check(t *testing.T, page, moduleDir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the page's program; run without -short")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command on PATH")
	}
	md, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	progs, err := Programs(string(md))
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	if len(progs) != 1 {
		t.Fatalf("%s holds %d programs (```go blocks starting with package main); it must hold one", page, len(progs))
	}
	p := progs[0]
	if formatted, err := format.Source([]byte(p.Source)); err == nil && string(formatted) != p.Source {
		t.Errorf("%s:%d: the program is not gofmt'd", page, p.Line)
	}
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		// Leave time to report a build that hangs.
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Until(d)/10))
		defer cancel()
	}
	name := strings.ToLower(strings.TrimSuffix(filepath.Base(page), filepath.Ext(page)))
	if err := Build(ctx, moduleDir, name, p.Source, t.TempDir()); err != nil {
		hint := ""
		if s := err.Error(); strings.Contains(s, "go mod tidy") || strings.Contains(s, "go.sum entry") || strings.Contains(s, "no required module") {
			hint = "\n(the module's go.mod lacks what the program imports: import the same packages in a file of a package no one imports, with a build tag no build sets, such as internal/docdeps with //go:build docs, and run go mod tidy)"
		}
		t.Fatalf("%s:%d: the program does not compile in the module in %s (main.go line N is the page's line %d+N):\n%v%s", page, p.Line, moduleDir, p.Line-1, err, hint)
	}
}
