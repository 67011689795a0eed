package builtin

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// renderer writes one file's lines in content mode, as grep -n does:
// "path:12:text" for a match, "path-11-text" for context, "--" between
// groups that are not adjacent (and between files). It keeps the last -B
// lines for context and nothing else; each entry goes to the sink, which
// skips those before offset without their text.
type renderer struct {
	s    *grepSearch
	abs  string
	sink *grepSink
	last int // the number of the last line written
	// ring holds the last s.before lines that were not written, as
	// numbers and copies of their text (cut at maxLineBytes).
	ring  []ringLine
	next  int // where the next line goes in ring
	after int // context lines still to write after a match
}

type ringLine struct {
	num  int
	text []byte
}

// line takes the next line of the file; it returns false when the sink
// wants no more.
func (r *renderer) line(num int, text []byte, matched bool) bool {
	s := r.s
	if !matched {
		if r.after > 0 {
			r.after--
			return r.emit(num, text, '-')
		}
		if s.before > 0 {
			r.remember(num, text)
		}
		return true
	}
	// The -B lines still held, oldest first, that follow what was written.
	first := num
	var ctx []ringLine
	if s.before > 0 {
		ctx = r.held(num)
		if len(ctx) > 0 {
			first = ctx[0].num
		}
	}
	if r.last > 0 && first > r.last+1 && (s.before > 0 || s.after > 0) {
		if !r.sink.addLit("--") {
			return false
		}
	}
	if r.last == 0 && (s.before > 0 || s.after > 0) && r.sink.seen > 0 {
		if !r.sink.addLit("--") {
			return false
		}
	}
	for _, c := range ctx {
		if !r.emit(c.num, c.text, '-') {
			return false
		}
	}
	r.ring = r.ring[:0]
	r.next = 0
	r.after = s.after
	return r.emit(num, text, ':')
}

// remember keeps a line for -B context.
func (r *renderer) remember(num int, text []byte) {
	text = text[:min(len(text), maxLineBytes)]
	if len(r.ring) < r.s.before {
		r.ring = append(r.ring, ringLine{num: num, text: append([]byte(nil), text...)})
		return
	}
	slot := &r.ring[r.next]
	slot.num = num
	slot.text = append(slot.text[:0], text...)
	r.next = (r.next + 1) % len(r.ring)
}

// held returns the remembered lines that are within -B of num and after
// the last line written, oldest first.
func (r *renderer) held(num int) []ringLine {
	var out []ringLine
	n := len(r.ring)
	for i := range n {
		l := r.ring[(r.next+i)%n]
		if l.num > r.last && l.num >= num-r.s.before && l.num < num {
			out = append(out, l)
		}
	}
	return out
}

// emit writes one line as an entry.
func (r *renderer) emit(num int, text []byte, sep byte) bool {
	r.last = num
	if !r.sink.wants() {
		return r.sink.skip()
	}
	var b strings.Builder
	b.Grow(len(r.abs) + 10 + min(len(text), maxLineBytes))
	b.WriteString(r.abs)
	b.WriteByte(sep)
	if r.s.lineNumbers {
		b.WriteString(strconv.Itoa(num))
		b.WriteByte(sep)
	}
	b.WriteString(lineText(text))
	return r.sink.add(b.String())
}

// lineText prepares a line for output: without a trailing "\r", invalid
// UTF-8 as U+FFFD, cut at maxLineRunes characters.
func lineText(b []byte) string {
	b = bytes.TrimSuffix(b, []byte("\r"))
	cut := false
	if len(b) > maxLineBytes {
		b, cut = b[:maxLineBytes], true
	}
	s := string(b)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if cut || len(s) > maxLineRunes && utf8.RuneCountInString(s) > maxLineRunes {
		s = cutRunes(s, maxLineRunes) + "..."
	}
	return s
}

// format pages the held entries and adds the notes.
func (g *grepRun) format(in GrepInput) string {
	k := &g.sink
	var out strings.Builder
	note := func(format string, args ...any) {
		out.WriteString("\n\n")
		out.WriteString(fail(format, args...).Error())
	}
	notes := func() {
		if g.big > 0 {
			note("[Skipped %s larger than %d MiB.]", plural(g.big, "file"), maxGrepFileBytes>>20)
		}
		if g.long > 0 {
			note("[%s longer than %d MiB %s searched in the first MiB only.]", plural(g.long, "line"), maxGrepLineBytes>>20, wasWere(g.long))
		}
		if s := skippedNote(g.skippedFiles, g.skippedDirs); s != "" {
			out.WriteString("\n\n")
			out.WriteString(s)
		}
	}
	if k.seen == 0 {
		if g.s.mode == modeContent {
			out.WriteString("No matches found")
		} else {
			out.WriteString(noFilesFound)
		}
		notes()
		return out.String()
	}
	if in.Offset >= k.seen {
		out.WriteString("No results at offset " + strconv.Itoa(in.Offset) + ": there are " + plural(k.seen, "result") + ".")
		notes()
		return out.String()
	}
	switch g.s.mode {
	case modeFiles:
		out.WriteString("Found " + plural(g.nFiles, "file") + "\n")
	case modeCount:
		out.WriteString("Found " + plural(g.matches, "match") + " in " + plural(g.nFiles, "file") + "\n")
	}
	shown := 0
	cut := k.cut
	for _, e := range k.held {
		if out.Len()+len(e) > maxGrepChars && shown > 0 {
			cut = true
			break
		}
		if shown > 0 {
			out.WriteByte('\n')
		}
		out.WriteString(e)
		shown++
	}
	end := in.Offset + shown
	switch {
	case cut:
		note("[Output cut at %d characters: showing results %d-%d. Page on with offset=%d, or narrow the search.]", maxGrepChars, in.Offset+1, end, end)
	case end < k.seen:
		note("[Showing results %d-%d; there are more. Page on with offset=%d.]", in.Offset+1, end, end)
	}
	notes()
	return out.String()
}

// skippedNote is the note for what the allow-list left out, or "".
func skippedNote(files, dirs int) string {
	var what string
	switch {
	case files > 0 && dirs > 0:
		what = plural(files, "file") + " and " + dirsWord(dirs) + " were"
	case files > 0:
		what = plural(files, "file") + " " + wasWere(files)
	case dirs > 0:
		what = dirsWord(dirs) + " " + wasWere(dirs)
	default:
		return ""
	}
	return "[" + what + " skipped by the allow-list.]"
}

func dirsWord(n int) string {
	if n == 1 {
		return "1 directory"
	}
	return strconv.Itoa(n) + " directories"
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
