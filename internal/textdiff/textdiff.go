// Package textdiff renders a unified diff of two texts, line by line, for
// toolgen -check -v.
package textdiff

import (
	"fmt"
	"strings"
)

// Unified returns the unified diff that turns old into new, with three
// lines of context, or "" when they are equal.
func Unified(oldName, newName, old, new string) string {
	if old == new {
		return ""
	}
	a, b := split(old), split(new)
	ops := diff(a, b)
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", oldName, newName)
	const ctx = 3
	for i := 0; i < len(ops); {
		// Find the next change.
		for i < len(ops) && ops[i].kind == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(0, i-ctx)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(len(ops), end+ctx)
				break
			}
			end = run
		}
		aStart, bStart, aLen, bLen := ops[start].a, ops[start].b, 0, 0
		for _, op := range ops[start:end] {
			if op.kind != '+' {
				aLen++
			}
			if op.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&out, "@@ -%d,%d +%d,%d @@\n", aStart+1, aLen, bStart+1, bLen)
		for _, op := range ops[start:end] {
			out.WriteByte(op.kind)
			out.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return out.String()
}

type op struct {
	kind byte // ' ', '-', '+'
	text string
	a, b int // line indexes before the op
}

// split returns the lines of s, each with its newline.
func split(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// diff computes an edit script with a longest common subsequence over the
// lines between the common prefix and suffix.
func diff(a, b []string) []op {
	var ops []op
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		ops = append(ops, op{' ', a[pre], pre, pre})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	// lcs[i][j] is the LCS length of ma[i:] and mb[j:].
	lcs := make([][]int32, len(ma)+1)
	for i := range lcs {
		lcs[i] = make([]int32, len(mb)+1)
	}
	for i := len(ma) - 1; i >= 0; i-- {
		for j := len(mb) - 1; j >= 0; j-- {
			if ma[i] == mb[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(ma) || j < len(mb) {
		switch {
		case i < len(ma) && j < len(mb) && ma[i] == mb[j]:
			ops = append(ops, op{' ', ma[i], pre + i, pre + j})
			i++
			j++
		case i < len(ma) && (j == len(mb) || lcs[i+1][j] >= lcs[i][j+1]):
			ops = append(ops, op{'-', ma[i], pre + i, pre + j})
			i++
		default:
			ops = append(ops, op{'+', mb[j], pre + i, pre + j})
			j++
		}
	}
	for k := 0; k < suf; k++ {
		ai, bi := len(a)-suf+k, len(b)-suf+k
		ops = append(ops, op{' ', a[ai], ai, bi})
	}
	return ops
}
