package store

import "time"

// SetClock replaces m's clock, for tests.
func SetClock(m *Memory, now func() time.Time) { m.now = now }
