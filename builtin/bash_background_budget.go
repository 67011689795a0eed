package builtin

// write adds p to t's unread output. Called with the manager's mu held.
func (t *bgTask) write(p []byte) {
	t.dropped += int64(t.out.write(p))
}

// taskWriter receives a background command's output from the shell.
type taskWriter struct {
	m *BackgroundManager
	t *bgTask
}

func (w *taskWriter) Write(p []byte) (int, error) {
	w.m.mu.Lock()
	w.t.write(p)
	w.m.mu.Unlock()
	return len(p), nil
}

// reclaim makes room in the store: it drops the oldest chunk of unread
// output of the command that finished first and still holds some, or,
// when none does, of the running command that holds the most (the
// earliest started of those that hold as much). It reports whether it
// found a chunk. Called with mu held, by the store.
func (m *BackgroundManager) reclaim() bool {
	for len(m.finished) > 0 {
		t := m.finished[0]
		if t.out.size > 0 {
			m.dropBudget(t)
			return true
		}
		m.finished[0] = nil
		m.finished = m.finished[1:]
	}
	var victim *bgTask
	for _, id := range m.order {
		t := m.tasks[id]
		if t.status == StatusRunning && len(t.out.chunks) > 0 && (victim == nil || len(t.out.chunks) > len(victim.out.chunks)) {
			victim = t
		}
	}
	if victim == nil {
		return false
	}
	m.dropBudget(victim)
	return true
}

// dropBudget drops t's oldest chunk to make room under the budget.
func (m *BackgroundManager) dropBudget(t *bgTask) {
	n := t.out.dropChunk()
	t.dropped += int64(n)
	t.budgetDropped += int64(n)
}

// outStore hands out the fixed-size chunks unread output is kept in, at
// most maxChunks of them in all (those held by rings and the spare ones).
// When none is left it asks reclaim to free one. It is guarded by the
// manager's mu.
type outStore struct {
	chunk     int
	maxChunks int
	allocated int      // chunks in rings and in free
	free      [][]byte // spare chunks
	reclaim   func() bool
}

// get returns a chunk, freeing one held by a ring when the store is full.
func (s *outStore) get() []byte {
	if len(s.free) == 0 && s.allocated >= s.maxChunks && s.reclaim != nil {
		s.reclaim()
	}
	if n := len(s.free); n > 0 {
		c := s.free[n-1]
		s.free[n-1] = nil
		s.free = s.free[:n-1]
		return c
	}
	// Past maxChunks only when reclaim found nothing to take, which the
	// manager rules out: every chunk is spare or held by a command it
	// lists (a store without reclaim, in tests, is unbounded).
	s.allocated++
	return make([]byte, s.chunk)
}

// put takes back a chunk a ring no longer needs: kept for reuse, or left
// to the garbage collector.
func (s *outStore) put(c []byte) {
	if len(s.free) < maxFreeChunks {
		s.free = append(s.free, c)
		return
	}
	s.allocated--
}
