package bench

import (
	"errors"
	"strconv"

	"github.com/toolgen/toolgen/gen_test/grep"
)

// handGrep is the baseline the generated binder is measured against: the
// Grep binder a careful developer writes by hand over a hand-rolled
// scanner of the same bytes. It copies the bytes into one string and
// slices the values out of it (one allocation), unquotes only strings
// with escapes, checks types and the required field, and stops at the
// first problem: no violation list, no paths, no nested values.
func handGrep(data []byte) (grep.GrepInput, error) {
	out := grep.GrepInput{OutputMode: "files_with_matches"}
	s := string(data)
	i := space(s, 0)
	if i >= len(s) || s[i] != '{' {
		return out, errHand
	}
	i = space(s, i+1)
	havePattern := false
	if i < len(s) && s[i] == '}' {
		return out, errors.New("pattern is required")
	}
	for {
		key, j, err := str(s, i)
		if err != nil {
			return out, err
		}
		i = space(s, j)
		if i >= len(s) || s[i] != ':' {
			return out, errHand
		}
		i = space(s, i+1)
		switch key {
		case "pattern", "path", "glob", "type", "output_mode":
			v, j, err := str(s, i)
			if err != nil {
				return out, errors.New(key + " must be a string")
			}
			i = j
			switch key {
			case "pattern":
				out.Pattern, havePattern = v, true
			case "path":
				out.Path = v
			case "glob":
				out.Glob = v
			case "type":
				out.Type = v
			case "output_mode":
				if v != "content" && v != "files_with_matches" && v != "count" {
					return out, errors.New("output_mode is not one of its values")
				}
				out.OutputMode = v
			}
		case "-i", "-n", "multiline":
			var v bool
			switch {
			case len(s)-i >= 4 && s[i:i+4] == "true":
				v, i = true, i+4
			case len(s)-i >= 5 && s[i:i+5] == "false":
				i += 5
			default:
				return out, errors.New(key + " must be a boolean")
			}
			switch key {
			case "-i":
				out.I = v
			case "-n":
				out.N = v
			default:
				out.Multiline = v
			}
		case "-A", "-B", "-C", "head_limit", "offset":
			j := i
			for j < len(s) && (s[j] == '-' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			n, err := strconv.Atoi(s[i:j])
			if err != nil || n < 0 {
				return out, errors.New(key + " must be a non-negative integer")
			}
			i = j
			switch key {
			case "-A":
				out.A = n
			case "-B":
				out.B = n
			case "-C":
				out.C = n
			case "head_limit":
				out.HeadLimit = n
			default:
				out.Offset = n
			}
		default:
			return out, errors.New("unknown parameter " + key)
		}
		i = space(s, i)
		if i < len(s) && s[i] == ',' {
			i = space(s, i+1)
			continue
		}
		if i < len(s) && s[i] == '}' && space(s, i+1) == len(s) {
			break
		}
		return out, errHand
	}
	if !havePattern {
		return out, errors.New("pattern is required")
	}
	return out, nil
}

var errHand = errors.New("arguments are not a JSON object")

func space(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// str reads the string at s[i:], unquoting it only when it has escapes.
func str(s string, i int) (string, int, error) {
	if i >= len(s) || s[i] != '"' {
		return "", i, errHand
	}
	escaped := false
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			escaped = true
			j++
		case '"':
			if !escaped {
				return s[i+1 : j], j + 1, nil
			}
			v, err := strconv.Unquote(s[i : j+1])
			return v, j + 1, err
		}
	}
	return "", len(s), errHand
}
