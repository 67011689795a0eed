package readmetest

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/toolgen/toolgen/internal/docprog"
)

// A QuickStart is what the README's quick-start section asks a reader to
// do: write Files, run Commands in order, and see Output from the last.
type QuickStart struct {
	// Files maps a slash-separated path to its content.
	Files map[string]string
	// Commands are the shell lines of the section's sh blocks, in order,
	// with comments and blank lines dropped.
	Commands []string
	// Output is the section's one text block: what the last command prints.
	Output string
}

var (
	packageClause = regexp.MustCompile(`^package [A-Za-z_][A-Za-z0-9_]*\n`)
	buildLine     = regexp.MustCompile(`^//go:build [^\n]+\n\n`)
	goPath        = regexp.MustCompile("`([A-Za-z0-9_./-]+\\.go)`")
)

// section returns the part of md from the level-2 heading starting with
// title to the next level-2 heading.
func section(md, title string) (string, error) {
	md = "\n" + md
	i := strings.Index(md, "\n## "+title)
	if i < 0 {
		return "", fmt.Errorf("no section %q: the quick start must be a level-2 heading starting with %q", title, title)
	}
	rest := md[i+1:]
	if j := strings.Index(rest[3:], "\n## "); j >= 0 {
		rest = rest[:3+j+1]
	}
	return rest, nil
}

// isFile reports whether a Go block is a complete file: it starts with a
// package clause, or with a build constraint and then one.
func isFile(body string) bool {
	return packageClause.MatchString(buildLine.ReplaceAllString(body, ""))
}

// ParseQuickStart reads the quick start from a README. Every Go block in
// the README must be a complete file (so that a reader can copy any of
// them); each is named by the last `path.go` in the prose before it.
func ParseQuickStart(md string) (QuickStart, error) {
	all, err := docprog.Blocks(md)
	if err != nil {
		return QuickStart{}, err
	}
	q := QuickStart{Files: map[string]string{}}
	for _, b := range all {
		if b.Info != "go" {
			continue
		}
		if !isFile(b.Body) {
			return QuickStart{}, fmt.Errorf("README line %d: a Go block that is not a complete file (it must start with a package clause, or //go:build and then one)", b.Line)
		}
		names := goPath.FindAllStringSubmatch(b.Before, -1)
		if len(names) == 0 {
			return QuickStart{}, fmt.Errorf("README line %d: no file name for the Go block: put its path in backquotes (`echo/echo.go`) in the text before it", b.Line)
		}
		name := names[len(names)-1][1]
		if _, dup := q.Files[name]; dup {
			return QuickStart{}, fmt.Errorf("README line %d: a second Go block named %s", b.Line, name)
		}
		q.Files[name] = b.Body
	}
	sec, err := section(md, "Quick start")
	if err != nil {
		return QuickStart{}, err
	}
	qs, err := docprog.Blocks(sec)
	if err != nil {
		return QuickStart{}, err
	}
	texts := 0
	for _, b := range qs {
		switch b.Info {
		case "sh":
			for _, l := range strings.Split(b.Body, "\n") {
				if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
					q.Commands = append(q.Commands, l)
				}
			}
		case "text":
			texts++
			q.Output = b.Body
		}
	}
	switch {
	case len(q.Files) == 0:
		return QuickStart{}, fmt.Errorf("the README has no Go files")
	case len(q.Commands) == 0:
		return QuickStart{}, fmt.Errorf("the quick start has no sh block of commands")
	case texts != 1:
		return QuickStart{}, fmt.Errorf("the quick start has %d text blocks; it needs exactly one, the output of its last command", texts)
	}
	return q, nil
}
