package annotations

import (
	"strings"
	"unicode"
)

// restating holds the words a sentence may use besides a type's and a
// tool's names and still say nothing else: "EchoInput is the input of the
// Echo tool.", "ReadArgs holds the arguments for Read."
var restating = map[string]bool{
	"a": true, "an": true, "the": true, "this": true, "is": true, "are": true, "holds": true,
	"of": true, "for": true, "to": true, "input": true, "inputs": true, "tool": true, "tools": true,
	"argument": true, "arguments": true, "parameter": true, "parameters": true, "struct": true,
	"type": true, "s": true,
}

// DocDescription returns the part of a tool's doc comment prose (see
// [Prose]) that may stand as its description when //tool:description is
// absent: the prose without its first sentence when that sentence only
// restates the input type's or the tool's name, as Go's convention for a
// doc comment's first sentence has it ("EchoInput is the input of the Echo
// tool."). It returns "" when nothing else is left. restated reports that
// the first sentence was dropped.
func DocDescription(prose, typeName, toolName string) (desc string, restated bool) {
	first, rest := firstSentence(prose)
	if first == "" || !Restates(first, typeName, toolName) {
		return prose, false
	}
	return strings.TrimSpace(rest), true
}

// Restates reports whether sentence says nothing but the names typeName
// and toolName, in words such as "is the input of the ... tool".
func Restates(sentence, typeName, toolName string) bool {
	names := map[string]bool{strings.ToLower(typeName): true}
	for _, w := range words(toolName) {
		names[w] = true
	}
	names[strings.ToLower(toolName)] = true
	ws := words(sentence)
	if len(ws) == 0 {
		return false
	}
	named := false
	for _, w := range ws {
		switch {
		case names[w]:
			named = true
		case !restating[w]:
			return false
		}
	}
	return named
}

// words splits s into lower-case words of letters and digits; a name such
// as read_file or web.search gives its parts.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// firstSentence splits prose after its first sentence: up to the first
// '.', '!' or '?' followed by a space or the end, within the first
// paragraph.
func firstSentence(prose string) (first, rest string) {
	para, after, hasMore := strings.Cut(prose, "\n\n")
	for i, r := range para {
		if r != '.' && r != '!' && r != '?' {
			continue
		}
		end := i + 1
		if end == len(para) || para[end] == ' ' {
			rest = para[end:]
			if hasMore {
				rest += "\n\n" + after
			}
			return para[:end], rest
		}
	}
	if hasMore {
		return para, "\n\n" + after
	}
	return para, ""
}
