package builtin

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"sync"
	"unicode/utf8"
)

// scanPool holds the read buffers of Grep's searches.
var scanPool = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, grepBufferBytes) }}

// searchFile searches one file. Files that cannot be opened, binary files
// and files that are not regular are left out silently; a file the
// allow-list refuses where it was really opened is marked refused. With a
// renderer (content mode), every line goes to it; without one, the file's
// matching lines are only counted (files mode stops at the first).
func (g *grepRun) searchFile(loc location, visit lineFunc) grepFile {
	res := grepFile{abs: loc.abs}
	// The walk saw a regular file; the open does not block if it has become
	// something else since, and the open file's mode is checked again.
	fh, err := loc.fs.OpenFile(loc.name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return res
	}
	defer fh.Close()
	fi, err := fh.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return res
	}
	if !allowedOpen(g.filter, fh, loc.abs) {
		res.refused = true
		return res
	}
	if fi.Size() > maxGrepFileBytes {
		res.big = true
		return res
	}
	br := scanPool.Get().(*bufio.Reader)
	br.Reset(fh)
	defer func() { br.Reset(nil); scanPool.Put(br) }()
	head, err := br.Peek(sniffBytes)
	if len(head) == 0 || (err != nil && !errors.Is(err, io.EOF)) {
		return res
	}
	if _, binary := sniff(head); binary {
		return res
	}
	all := visit != nil && (g.s.before > 0 || g.s.after > 0)
	var sc grepScan
	if g.s.multiline {
		sc, err = g.s.scanWhole(g.ctx, br, visit, all)
	} else {
		sc, err = g.s.scanLines(g.ctx, br, visit, all)
	}
	if err != nil && g.ctx.Err() != nil {
		return res
	}
	res.long = sc.long
	res.count = sc.count
	res.matched = sc.count > 0
	return res
}

// lineFunc takes the lines of a file in order: its number, its text (valid
// until the call returns) and whether it matches. It returns false to end
// the search of the file.
type lineFunc func(num int, text []byte, matched bool) bool

// grepScan is what scanning one file found.
type grepScan struct {
	count int // matching lines (line mode) or matches (multiline mode)
	long  int // lines searched in part
}

// scanLines searches br line by line. The expression is run on blocks of
// whole lines of at most s.unit bytes, to find the lines that may match,
// and each such line is then matched on its own; a line longer than a
// block is read on its own (at most maxGrepLineBytes of it) and matched
// through a reader that checks ctx. ctx is checked before every block.
// visit, when not nil, is given every matching line, and every other line
// too when all is true; without it, matching lines are only counted.
func (s *grepSearch) scanLines(ctx context.Context, br *bufio.Reader, visit lineFunc, all bool) (grepScan, error) {
	var sc grepScan
	num := 0
	var long []byte
	unit := min(s.unit, br.Size())
	for {
		if err := ctx.Err(); err != nil {
			return sc, err
		}
		data, perr := br.Peek(unit)
		if len(data) == 0 {
			if perr != nil && !errors.Is(perr, io.EOF) {
				return sc, perr
			}
			return sc, nil
		}
		end := bytes.LastIndexByte(data, '\n') + 1
		if end == 0 && perr == nil {
			// One line longer than a block.
			line, cut, err := readLongLine(ctx, br, long[:0])
			long = line[:0]
			if err != nil {
				return sc, err
			}
			if cut {
				sc.long++
			}
			num++
			matched, err := s.matchReader(ctx, line)
			if err != nil {
				return sc, err
			}
			if matched {
				sc.count++
			}
			if visit != nil && (matched || all) && !visit(num, line, matched) {
				return sc, nil
			}
			if matched && visit == nil && s.mode == modeFiles {
				return sc, nil
			}
			continue
		}
		if end == 0 {
			end = len(data) // the last line, without a newline
		}
		block := data[:end]
		stop := false
		num, stop = s.scanBlock(block, num, visit, all, &sc)
		if _, err := br.Discard(end); err != nil {
			return sc, err
		}
		if stop {
			return sc, nil
		}
	}
}

// scanBlock searches a block of whole lines, numbered from num+1, and
// returns the number of its last line; stop is true when the search of the
// file is over (files mode found a match, or the renderer's sink is full).
func (s *grepSearch) scanBlock(block []byte, num int, visit lineFunc, all bool, sc *grepScan) (int, bool) {
	pos, window := 0, s.window
	for pos < len(block) {
		// The next line the expression may match on: the one holding the
		// next match in the lines from pos to end (a window of whole
		// lines, which doubles while it holds none), or every line without
		// the prefilter. A line that matches on its own matches there too:
		// the window holds the whole line, and its bounds in the window are
		// bounds of lines.
		cand, candEnd, end := pos, -1, len(block)
		if s.prefilter {
			end = windowEnd(block, pos, window)
			m := s.re.FindIndex(block[pos:end])
			if m == nil {
				cand = -1
				window *= 2
			} else {
				cand, candEnd = pos+m[0], pos+m[1]
				window = s.window
			}
		}
		var ls int // the start of the candidate's line
		switch {
		case cand < 0, cand == end && block[end-1] == '\n':
			// None, or an empty match after the window's last newline,
			// which is on the next line.
			ls = end
		default:
			ls = max(bytes.LastIndexByte(block[:cand], '\n')+1, pos)
		}
		// The lines before it do not match.
		if all {
			for pos < ls {
				le := lineEnd(block, pos)
				num++
				if !visit(num, block[pos:le], false) {
					return num, true
				}
				pos = le + 1
			}
		} else if ls > pos {
			num += bytes.Count(block[pos:ls], []byte{'\n'})
			if ls == len(block) && block[len(block)-1] != '\n' {
				num++ // the last line, without a newline
			}
		}
		pos = ls
		if pos >= len(block) {
			break
		}
		if pos == end {
			continue // no candidate in the window: search the next one
		}
		le := lineEnd(block, pos)
		line := block[pos:le]
		num++
		// A match within the line is a match of the line on its own: the
		// expression sees a line's bounds in the block as it sees the
		// bounds of the line alone (no \A or \z here). One that runs past
		// the line's end must be checked on the line.
		matched := candEnd >= 0 && candEnd <= le && cand >= pos
		if !matched {
			matched = s.re.Match(line)
		}
		if matched {
			sc.count++
		}
		if visit != nil && (matched || all) && !visit(num, line, matched) {
			return num, true
		}
		if matched && visit == nil && s.mode == modeFiles {
			return num, true
		}
		pos = le + 1
	}
	return num, false
}

// windowEnd returns the end of the text the search for the next candidate
// line from pos runs on: window bytes, extended to the end of the line they
// end in, or the block's end.
func windowEnd(block []byte, pos, window int) int {
	if len(block)-pos <= window {
		return len(block)
	}
	return min(lineEnd(block, pos+window-1)+1, len(block))
}

// lineEnd returns the index of the newline that ends the line starting at
// pos, or len(b).
func lineEnd(b []byte, pos int) int {
	if i := bytes.IndexByte(b[pos:], '\n'); i >= 0 {
		return pos + i
	}
	return len(b)
}

// readLongLine reads one line from br into buf, without its newline,
// keeping at most maxGrepLineBytes; cut reports that more was skipped.
// ctx is checked once per buffer.
func readLongLine(ctx context.Context, br *bufio.Reader, buf []byte) (line []byte, cut bool, err error) {
	for {
		if err := ctx.Err(); err != nil {
			return buf, cut, err
		}
		chunk, err := br.ReadSlice('\n')
		end := err == nil
		if end {
			chunk = chunk[:len(chunk)-1]
		}
		if room := maxGrepLineBytes - len(buf); room > 0 {
			buf = append(buf, chunk[:min(room, len(chunk))]...)
			cut = cut || len(chunk) > room
		} else if len(chunk) > 0 {
			cut = true
		}
		switch {
		case end, errors.Is(err, io.EOF):
			return buf, cut, nil
		case errors.Is(err, bufio.ErrBufferFull):
		default:
			return buf, cut, err
		}
	}
}

// matchReader reports whether the expression matches b, running it
// through a reader that ends the input early once ctx is done, so that a
// long input and a costly expression cannot outlive the call. A short b
// is matched directly.
func (s *grepSearch) matchReader(ctx context.Context, b []byte) (bool, error) {
	if len(b) <= s.unit {
		return s.re.Match(b), nil
	}
	cr := &ctxReader{b: b, done: ctx.Done()}
	ok := s.re.MatchReader(cr)
	if cr.stopped {
		return false, ctx.Err()
	}
	return ok, nil
}

// findFrom returns the first match in b (offsets into b), through the
// reader when b is longer than a unit; see matchReader.
func (s *grepSearch) findFrom(ctx context.Context, b []byte) ([]int, error) {
	if len(b) <= s.unit {
		return s.re.FindIndex(b), nil
	}
	cr := &ctxReader{b: b, done: ctx.Done()}
	m := s.re.FindReaderIndex(cr)
	if cr.stopped {
		return nil, ctx.Err()
	}
	return m, nil
}

// ctxReader is an io.RuneReader over b that reports the end of its input
// once done is closed; it looks every ctxRunes runes.
type ctxReader struct {
	b       []byte
	i       int
	n       int
	done    <-chan struct{}
	stopped bool
}

const ctxRunes = 64

func (r *ctxReader) ReadRune() (rune, int, error) {
	if r.stopped || r.i >= len(r.b) {
		return 0, 0, io.EOF
	}
	if r.n++; r.n%ctxRunes == 0 {
		select {
		case <-r.done:
			r.stopped = true
			return 0, 0, io.EOF
		default:
		}
	}
	c := r.b[r.i]
	if c < utf8.RuneSelf {
		r.i++
		return rune(c), 1, nil
	}
	ru, size := utf8.DecodeRune(r.b[r.i:])
	r.i += size
	return ru, size, nil
}

// scanWhole searches a whole file in multiline mode, where a match may
// span lines: every line a match touches is a matching line, and the next
// match is searched from the line after the last one it touched (so
// anchors and word boundaries see a line's start). The file is read into
// memory, at most maxGrepFileBytes of it.
func (s *grepSearch) scanWhole(ctx context.Context, br *bufio.Reader, visit lineFunc, all bool) (grepScan, error) {
	var sc grepScan
	bp := bufPool.Get().(*[]byte)
	defer bufPool.Put(bp)
	buf, err := readWhole(ctx, br, (*bp)[:0])
	*bp = buf[:0]
	if err != nil {
		return sc, err
	}
	num := 0         // the number of the line starting at pos
	pos := 0         // where the next line starts
	from := 0        // where the next match is searched from (a line start)
	ms, me := -1, -1 // the byte range of the lines the current match touches
	for pos < len(buf) {
		if me < pos && from <= pos {
			if err := ctx.Err(); err != nil {
				return sc, err
			}
			ms, me = len(buf), len(buf)
			if !(s.startOnly && sc.count > 0) {
				m, err := s.findFrom(ctx, buf[from:])
				if err != nil {
					return sc, err
				}
				if m != nil && (from+m[0] < len(buf) || buf[len(buf)-1] != '\n') {
					a, b := from+m[0], from+max(m[1]-1, m[0])
					ms = bytes.LastIndexByte(buf[:a], '\n') + 1
					me = lineEnd(buf, min(b, len(buf)))
					sc.count++
					if visit == nil && s.mode == modeFiles {
						return sc, nil
					}
				}
			}
			from = me + 1
			if !all && ms > pos {
				// Jump to the match's first line.
				num += bytes.Count(buf[pos:ms], []byte{'\n'})
				pos = ms
				if pos >= len(buf) {
					break
				}
			}
		}
		le := lineEnd(buf, pos)
		num++
		matched := pos >= ms && pos <= me
		if visit != nil && (matched || all) && !visit(num, buf[pos:le], matched) {
			return sc, nil
		}
		pos = le + 1
	}
	return sc, nil
}

// bufPool holds the whole-file buffers of multiline searches.
var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// readWhole reads br into buf, up to maxGrepFileBytes (a file that grew
// past it is searched in its first part), checking ctx between reads.
func readWhole(ctx context.Context, br io.Reader, buf []byte) ([]byte, error) {
	for {
		if err := ctx.Err(); err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			if len(buf) >= maxGrepFileBytes {
				return buf, nil
			}
			buf = slices.Grow(buf, min(max(len(buf), 64<<10), maxGrepFileBytes-len(buf)))
		}
		n, err := br.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}
