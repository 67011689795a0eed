package builtin

// grepSink takes Grep's entries in order: it counts the first offset
// without keeping them, keeps the next ones until head_limit entries (or,
// without a limit, maxGrepChars of text) are held, and then only counts.
// In content mode the search stops once the sink has seen one entry more
// than it holds, which proves there are more.
type grepSink struct {
	offset  int
	limit   int // 0: no limit but maxGrepChars
	content bool
	seen    int // entries seen, kept or not
	held    []string
	chars   int
	full    bool // no more entries are kept
	cut     bool // the last entry seen did not fit in maxGrepChars
}

func newGrepSink(in GrepInput) grepSink {
	return grepSink{offset: in.Offset, limit: in.HeadLimit, content: in.OutputMode == modeContent}
}

// wants reports whether the next entry would be kept, so that its text is
// worth making.
func (k *grepSink) wants() bool { return !k.full && k.seen >= k.offset }

// skip counts an entry that is not kept; it returns false when the search
// may stop.
func (k *grepSink) skip() bool {
	k.seen++
	return !k.stopped()
}

// add takes an entry; it returns false when the search may stop.
func (k *grepSink) add(e string) bool {
	if !k.wants() {
		return k.skip()
	}
	k.seen++
	if len(k.held) > 0 && k.chars+len(e)+1 > maxGrepChars {
		k.full, k.cut = true, true
		return !k.stopped()
	}
	k.held = append(k.held, e)
	k.chars += len(e) + 1
	if k.limit > 0 && len(k.held) >= k.limit {
		k.full = true
	}
	return true
}

// addLit takes a separator entry.
func (k *grepSink) addLit(e string) bool { return k.add(e) }

// stopped reports whether a content search may stop: the sink is full and
// has seen an entry it does not hold.
func (k *grepSink) stopped() bool {
	return k.content && k.full && k.seen > k.offset+len(k.held)
}
