// Package frontmatter reads an allow-list from the YAML front matter of a
// markdown file (an agent, a sub-agent, a skill, a command), the way such
// files declare their allowed-tools. It is a package of its own so that a
// program that builds its allow-list in Go does not link a YAML parser.
package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/toolgen/toolgen/runtime/permission"
)

// Key is the front-matter key that holds an allow-list.
const Key = "allowed-tools"

// misspelt are the normalised keys (lower case, no '-', '_' or spaces)
// that look like an attempt at Key.
var misspelt = map[string]bool{
	"allowedtools": true, "allowedtool": true, "allowtools": true, "allowtool": true,
	"tools": true, "permittedtools": true, "toolsallowed": true, "allowlist": true,
	"allowedcommands": true,
}

// Entry keys inside a mapping item of allowed-tools.
const (
	keyRule      = "rule"
	keyMustAllow = "must-allow"
	keyMustDeny  = "must-deny"
)

// Parse reads the allow-list of a markdown file (an agent, a
// sub-agent, a skill, a command) from its YAML front matter: the block
// between a first line "---" and the next line "---" (or "..."). The list
// is under the key allowed-tools, as a YAML list or as one comma-separated
// string ("Read, Grep, Bash(git:*)"; commas inside a pattern's
// parentheses do not split). A list item may also be a mapping that
// carries examples, verified as permission.New verifies them:
//
//	allowed-tools:
//	  - Read(/srv/data/**)
//	  - rule: Bash(git status:*)
//	    must-allow: [git status, git status --short]
//	    must-deny: [gitk, "git status; rm -rf /"]
//
// Without front matter or without the key it returns the zero List (no
// restriction); check Restricted. An empty list ([] or "") allows nothing.
// A key spelt otherwise (allowedTools, allowed_tools, AllowedTools, tools,
// ...) is an error naming allowed-tools, not silently ignored.
func Parse(src []byte, opts ...permission.Option) (permission.List, error) {
	src = bytes.TrimPrefix(src, []byte("\ufeff"))
	block, ok, err := frontMatter(src)
	if err != nil || !ok {
		return permission.List{}, err
	}
	var doc yaml.Node
	// The leading newline stands for the opening "---", so that line
	// numbers in errors are the file's.
	if err := yaml.Unmarshal(append([]byte("\n"), block...), &doc); err != nil {
		return permission.List{}, fmt.Errorf("permission: front matter is not valid YAML: %w", err)
	}
	if len(doc.Content) == 0 {
		return permission.List{}, nil
	}
	top := doc.Content[0]
	if top.Kind != yaml.MappingNode {
		return permission.List{}, errors.New("permission: front matter is not a mapping of keys to values")
	}
	var value *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		k := top.Content[i].Value
		switch {
		case k == Key && value != nil:
			return permission.List{}, fmt.Errorf("permission: front matter line %d: key %q is given twice; give it once", top.Content[i].Line, k)
		case k == Key:
			value = top.Content[i+1]
		case misspelt[normaliseKey(k)]:
			return permission.List{}, fmt.Errorf("permission: front matter line %d: key %q is not read; name the key %q", top.Content[i].Line, k, Key)
		}
	}
	if value == nil {
		return permission.List{}, nil
	}
	entries, err := frontMatterEntries(value)
	if err != nil {
		return permission.List{}, err
	}
	return permission.New(entries, opts...)
}

func normaliseKey(k string) string {
	return strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(k))
}

// frontMatter returns the YAML between the delimiters, and whether there
// is front matter at all.
func frontMatter(src []byte) ([]byte, bool, error) {
	first, rest, _ := bytes.Cut(src, []byte("\n"))
	if string(bytes.TrimRight(first, " \t\r")) != "---" {
		return nil, false, nil
	}
	start := len(first) + 1
	for off := 0; off < len(rest); {
		line, _, _ := bytes.Cut(rest[off:], []byte("\n"))
		if t := string(bytes.TrimRight(line, " \t\r")); t == "---" || t == "..." {
			return src[start : start+off], true, nil
		}
		off += len(line) + 1
	}
	return nil, false, errors.New("permission: front matter has no closing \"---\" line")
}

func frontMatterEntries(v *yaml.Node) ([]permission.Entry, error) {
	at := func(n *yaml.Node) string { return fmt.Sprintf("permission: front matter line %d: ", n.Line) }
	switch v.Kind {
	case yaml.ScalarNode:
		if v.Tag == "!!null" {
			return nil, fmt.Errorf("%s%s has no value; write a list of entries, or [] to allow no tool", at(v), Key)
		}
		if v.Tag != "!!str" {
			return nil, fmt.Errorf("%s%s must be a list or a comma-separated string, not %s", at(v), Key, v.Value)
		}
		var out []permission.Entry
		for _, s := range permission.SplitEntries(v.Value) {
			out = append(out, permission.Entry{Rule: s})
		}
		return out, nil
	case yaml.SequenceNode:
		out := []permission.Entry{}
		for _, item := range v.Content {
			e, err := frontMatterItem(item, at)
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s%s must be a list or a comma-separated string", at(v), Key)
}

func frontMatterItem(item *yaml.Node, at func(*yaml.Node) string) (permission.Entry, error) {
	switch item.Kind {
	case yaml.ScalarNode:
		if item.Tag != "!!str" {
			return permission.Entry{}, fmt.Errorf("%san entry must be a string such as Read or Bash(git:*), not %q", at(item), item.Value)
		}
		return permission.Entry{Rule: item.Value}, nil
	case yaml.MappingNode:
		var e permission.Entry
		hasRule := false
		for i := 0; i+1 < len(item.Content); i += 2 {
			k, val := item.Content[i], item.Content[i+1]
			switch k.Value {
			case keyRule:
				if val.Kind != yaml.ScalarNode || val.Tag != "!!str" {
					return permission.Entry{}, fmt.Errorf("%s%s must be a string such as Bash(git:*)", at(val), keyRule)
				}
				e.Rule, hasRule = val.Value, true
			case keyMustAllow, keyMustDeny:
				var list []string
				if err := val.Decode(&list); err != nil {
					return permission.Entry{}, fmt.Errorf("%s%s must be a list of strings", at(val), k.Value)
				}
				if k.Value == keyMustAllow {
					e.MustAllow = list
				} else {
					e.MustDeny = list
				}
			default:
				want := "one of " + keyRule + ", " + keyMustAllow + ", " + keyMustDeny
				switch n := normaliseKey(k.Value); {
				case strings.Contains(n, "allow") || n == "match":
					want = keyMustAllow
				case strings.Contains(n, "deny") || n == "notmatch":
					want = keyMustDeny
				case n == "entry" || n == "pattern" || n == "tool":
					want = keyRule
				}
				return permission.Entry{}, fmt.Errorf("%skey %q is not read; write %s", at(k), k.Value, want)
			}
		}
		if !hasRule {
			return permission.Entry{}, fmt.Errorf("%san entry with examples needs %s, such as %s: Bash(git:*)", at(item), keyRule, keyRule)
		}
		return e, nil
	}
	return permission.Entry{}, fmt.Errorf("%san entry must be a string such as Read or Bash(git:*)", at(item))
}
