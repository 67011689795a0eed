package builtin

import (
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgen/toolgen/runtime/shell"
)

// BackgroundRead is what one read of a background command returns.
type BackgroundRead struct {
	ID          string
	Command     string
	Description string
	Status      BackgroundStatus
	// ExitCode is meaningful when Status is StatusCompleted.
	ExitCode int
	// Timeout is the command's timeout.
	Timeout time.Duration
	// Reason says why a command failed or was killed, when known.
	Reason string
	// Output is the output produced since the last read, as valid UTF-8
	// (filtered when a filter was given), at most bashMaxOutputChars
	// characters.
	Output string
	// Dropped counts unread bytes dropped before this read: past the
	// per-command cap, Kept, or to make room under the manager's total
	// budget, KeptTotal. BudgetDropped is the part of Dropped the budget
	// took.
	Dropped       int64
	BudgetDropped int64
	Kept          int
	KeptTotal     int
	// More reports that unread output is left: read again for it.
	More bool
}

// Read returns the output the command id produced since the last read and
// its status, and marks that output read. With a filter, only the lines
// that match are returned; the others are read and discarded. While the
// command runs, a filtered read leaves a last line without its newline for
// the next read, so that a line is judged whole. At most
// bashMaxOutputChars characters are returned; the rest stays unread and
// More is set.
func (m *BackgroundManager) Read(id string, filter *regexp.Regexp) (BackgroundRead, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.tasks[id]
	if !ok {
		return BackgroundRead{}, m.unknown(id)
	}
	r := BackgroundRead{
		ID: t.id, Command: t.command, Description: t.description,
		Status: t.status, ExitCode: t.exitCode, Timeout: t.timeout, Reason: t.reason,
		Dropped: t.dropped, BudgetDropped: t.budgetDropped,
		Kept: t.out.max, KeptTotal: m.store.maxChunks * m.store.chunk,
	}
	t.dropped, t.budgetDropped = 0, 0
	// Without a filter a read returns bashMaxOutputChars characters at
	// most: copy only the bytes those can take (and those a cut
	// character skipped below can).
	var buf []byte
	if filter == nil {
		buf = t.out.prefix(utf8.UTFMax*bashMaxOutputChars + 2*utf8.UTFMax)
	} else {
		buf = t.out.bytes()
	}
	// Bytes dropped from the front may have cut a character: skip its rest.
	if r.Dropped > 0 {
		n := 0
		for n < len(buf) && n < utf8.UTFMax-1 && !utf8.RuneStart(buf[n]) {
			n++
		}
		buf = buf[n:]
		t.out.discard(n)
		r.Dropped += int64(n)
	}
	var used int
	if filter == nil {
		used = charsPrefix(buf, bashMaxOutputChars)
		if used == len(buf) && t.status == StatusRunning {
			// Leave a character the command has not finished writing.
			used = completeRunes(buf)
		}
		r.Output = shell.Text(buf[:used])
	} else {
		r.Output, used = filterLines(buf, filter, t.status == StatusRunning)
	}
	t.out.discard(used)
	r.More = t.out.size > 0 && (filter == nil || t.status != StatusRunning || t.out.contains('\n'))
	return r, nil
}

// filterLines returns the lines of buf that match re, joined with
// newlines, and how many bytes of buf it consumed. It stops before the
// result would pass bashMaxOutputChars characters (a single matching line
// longer than that is cut and consumed whole). When partial is set, a last
// line without a newline is not consumed.
func filterLines(buf []byte, re *regexp.Regexp, partial bool) (string, int) {
	var b strings.Builder
	chars, used := 0, 0
	for used < len(buf) {
		rest := buf[used:]
		end := len(rest)
		next := len(rest)
		if i := slices.Index(rest, '\n'); i >= 0 {
			end, next = i, i+1
		} else if partial {
			break
		}
		line := shell.Text(rest[:end])
		if re.MatchString(line) {
			n := utf8.RuneCountInString(line) + 1 // with its newline
			if chars > 0 && chars+n > bashMaxOutputChars {
				break
			}
			if n > bashMaxOutputChars {
				line = cutChars(line, bashMaxOutputChars)
			}
			b.WriteString(line)
			b.WriteByte('\n')
			chars += n
		}
		used += next
	}
	return b.String(), used
}

// completeRunes returns the length of b without a last character whose
// bytes have not all arrived yet.
func completeRunes(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			if !utf8.FullRune(b[i:]) {
				return i
			}
			break
		}
	}
	return len(b)
}
